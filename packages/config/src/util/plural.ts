/** "1 server" / "2 servers"; `many` for irregular plurals ("1 entry" / "2 entries"). */
export function plural(count: number, noun: string, many: string = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : many}`;
}
