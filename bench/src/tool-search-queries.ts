/**
 * Task sentences as a person would type them to a coding agent, each with
 * the tool (`server/tool`) a person would pick to do it, for the tool-search
 * scenario. Where two servers do the same thing (two browser servers), either
 * tool is right. Written against the tools these servers list, without
 * looking at the ranking's output.
 */
export interface ToolSearchQuery {
  query: string;
  /** The acceptable tools, as `server/tool` labels. */
  expect: string[];
}

const browser = (playwright: string, ...devtools: string[]): string[] => [
  `playwright/${playwright}`,
  ...devtools.map((tool) => `devtools/${tool}`),
];

/** The query set: 64 sentences over the eight servers of the scenario. */
export const TOOL_SEARCH_QUERIES: readonly ToolSearchQuery[] = [
  // @modelcontextprotocol/server-everything
  { query: "repeat back the text I give you", expect: ["everything/echo"] },
  { query: "add 17 and 25 together", expect: ["everything/get-sum"] },
  { query: "show me the environment variables the server sees", expect: ["everything/get-env"] },
  { query: "compress this file with gzip", expect: ["everything/gzip-file-as-resource"] },
  { query: "turn on the simulated logging", expect: ["everything/toggle-simulated-logging"] },
  {
    query: "start a long running job that reports its progress",
    expect: ["everything/trigger-long-running-operation"],
  },
  { query: "give me a tiny test image", expect: ["everything/get-tiny-image"] },
  // @modelcontextprotocol/server-filesystem
  { query: "read the contents of README.md", expect: ["filesystem/read_text_file", "filesystem/read_file"] },
  { query: "save this text into notes.txt", expect: ["filesystem/write_file"] },
  { query: "replace a line in src/index.ts", expect: ["filesystem/edit_file"] },
  { query: "make a new folder called build", expect: ["filesystem/create_directory"] },
  {
    query: "what files are in the src folder",
    expect: [
      "filesystem/list_directory",
      "filesystem/list_directory_with_sizes",
      "filesystem/directory_tree",
    ],
  },
  { query: "rename old.txt to new.txt", expect: ["filesystem/move_file"] },
  { query: "find all files matching *.test.ts", expect: ["filesystem/search_files"] },
  { query: "when was package.json last modified", expect: ["filesystem/get_file_info"] },
  { query: "show the folder structure as a tree", expect: ["filesystem/directory_tree"] },
  { query: "which directories am I allowed to access", expect: ["filesystem/list_allowed_directories"] },
  { query: "read three config files at once", expect: ["filesystem/read_multiple_files"] },
  { query: "open the logo.png image from disk", expect: ["filesystem/read_media_file"] },
  { query: "how big are the files in the dist directory", expect: ["filesystem/list_directory_with_sizes"] },
  // @modelcontextprotocol/server-memory
  { query: "remember a new person named Alice", expect: ["memory/create_entities"] },
  { query: "record that Alice manages Bob", expect: ["memory/create_relations"] },
  { query: "add a fact to what you know about Alice: she likes tea", expect: ["memory/add_observations"] },
  { query: "forget everything about Bob", expect: ["memory/delete_entities"] },
  { query: "show the whole knowledge graph", expect: ["memory/read_graph"] },
  { query: "look up what you remembered about project deadlines", expect: ["memory/search_nodes"] },
  { query: "remove the link between Alice and Acme", expect: ["memory/delete_relations"] },
  // @modelcontextprotocol/server-sequential-thinking
  { query: "think through this hard problem step by step", expect: ["thinking/sequentialthinking"] },
  // @playwright/mcp and chrome-devtools-mcp: either browser server will do
  {
    query: "open https://example.com in the browser",
    expect: browser("browser_navigate", "navigate_page", "new_page"),
  },
  {
    query: "take a screenshot of the current page",
    expect: browser("browser_take_screenshot", "take_screenshot"),
  },
  { query: "click the Sign in button", expect: browser("browser_click", "click") },
  { query: "type my email into the login field", expect: browser("browser_type", "fill", "type_text") },
  { query: "fill out the signup form", expect: browser("browser_fill_form", "fill_form") },
  { query: "press Enter", expect: browser("browser_press_key", "press_key") },
  { query: "go back to the previous page", expect: browser("browser_navigate_back", "navigate_page") },
  {
    query: "show the errors in the browser console",
    expect: browser("browser_console_messages", "list_console_messages"),
  },
  {
    query: "which network requests did the page make",
    expect: browser("browser_network_requests", "list_network_requests"),
  },
  { query: "run some JavaScript in the page", expect: browser("browser_evaluate", "evaluate_script") },
  { query: "accept the alert dialog", expect: browser("browser_handle_dialog", "handle_dialog") },
  { query: "upload a file through the form", expect: browser("browser_file_upload", "upload_file") },
  { query: "choose an option from the dropdown", expect: browser("browser_select_option", "fill") },
  { query: "open a new browser tab", expect: browser("browser_tabs", "new_page") },
  { query: "wait until the text Done appears", expect: browser("browser_wait_for", "wait_for") },
  { query: "resize the browser window to 800x600", expect: browser("browser_resize", "resize_page") },
  { query: "switch the page to dark mode", expect: browser("browser_emulate_media", "emulate") },
  { query: "close the browser", expect: browser("browser_close", "close_page") },
  { query: "hover over the menu", expect: browser("browser_hover", "hover") },
  { query: "drag the card to the done column", expect: browser("browser_drag", "drag") },
  { query: "record a performance trace of the page load", expect: ["devtools/performance_start_trace"] },
  { query: "run a Lighthouse audit for accessibility", expect: ["devtools/lighthouse_audit"] },
  { query: "capture a heap snapshot to find a memory leak", expect: ["devtools/take_heapsnapshot"] },
  { query: "record a video of the page", expect: ["devtools/screencast_start"] },
  { query: "which CSS rules apply to this element", expect: ["devtools/get_css_styles"] },
  // @notionhq/notion-mcp-server
  { query: "search my Notion workspace for the roadmap page", expect: ["notion/API-post-search"] },
  { query: "create a new page in Notion", expect: ["notion/API-post-page"] },
  { query: "add a comment to the Notion page", expect: ["notion/API-create-a-comment"] },
  { query: "list all users in the Notion workspace", expect: ["notion/API-get-users"] },
  { query: "query the tasks database for open items", expect: ["notion/API-query-data-source"] },
  { query: "get a Notion page's content as markdown", expect: ["notion/API-retrieve-page-markdown"] },
  { query: "append paragraphs to the end of a Notion page", expect: ["notion/API-patch-block-children"] },
  { query: "delete a block from a Notion page", expect: ["notion/API-delete-a-block"] },
  { query: "change the properties of a Notion page", expect: ["notion/API-patch-page"] },
  // @upstash/context7-mcp
  { query: "look up the latest React docs for useEffect", expect: ["context7/query-docs"] },
  { query: "find the Context7 library ID for next.js", expect: ["context7/resolve-library-id"] },
];
