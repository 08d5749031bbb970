import type { AuthStorage } from "@mcp-rt/config";
import type {
  OAuthClientInformationMixed,
  OAuthProtectedResourceMetadata,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import {
  OAuthClientInformationFullSchema,
  OAuthProtectedResourceMetadataSchema,
  OAuthTokensSchema,
} from "@modelcontextprotocol/core";
import { z } from "zod";
import { bindingKey, type SignInKey, signInKey } from "./sign-in-keys.js";

/** A server URL's OAuth binding: which issuer and resource its sign-in is with, found by discovery, kept so a restart finds its tokens without it. */
export interface OAuthServerBinding {
  /** The authorization server (issuer) the server named. */
  issuer: string;
  /** The resource indicator tokens are issued for (its metadata's `resource`, else the server URL). */
  resource: string;
  /** Where its protected resource metadata was found, if a challenge named it. */
  resourceMetadataUrl?: string | undefined;
  /** The metadata itself, so a refresh needs no discovery. */
  resourceMetadata?: OAuthProtectedResourceMetadata | undefined;
}

/** One sign-in: a client registration and the tokens it got, for one issuer and resource. */
export interface SignInRecord {
  /** How this client is known to the issuer, when it registered (dynamically, or as its metadata document URL), as the SDK saved it (with its `issuer` stamp). */
  client?:
    | { info: OAuthClientInformationMixed & StoredOAuthClientInformation; source: "dcr" | "cimd" }
    | undefined;
  /** The tokens, as the SDK saved them (with its `issuer` stamp). */
  tokens?: StoredOAuthTokens | undefined;
  /** When the access token expires (ms since the epoch), when the server said. */
  expiresAt?: number | undefined;
  /** When the tokens were saved (ms since the epoch). */
  savedAt?: number | undefined;
  /** The scope granted (the token response's, else the one requested). */
  scope?: string | undefined;
  /** The PKCE verifier, only while a sign-in runs. */
  verifier?: string | undefined;
}

const OAuthServerBindingSchema = z.object({
  issuer: z.string().min(1),
  resource: z.string().min(1),
  resourceMetadataUrl: z.string().optional(),
  resourceMetadata: z.unknown().optional(),
});

const SignInRecordSchema = z.object({
  client: z.object({ info: z.unknown(), source: z.enum(["dcr", "cimd"]) }).optional(),
  tokens: z.unknown().optional(),
  expiresAt: z.number().optional(),
  savedAt: z.number().optional(),
  scope: z.string().optional(),
  verifier: z.string().optional(),
});

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const updates = new Map<string, Promise<unknown>>();

/**
 * The OAuth part of an {@link AuthStorage}: per server URL an {@link OAuthServerBinding}
 * (`oauth:server:<url>`), per issuer and resource a {@link SignInRecord}
 * (`oauth:signin:<issuer> <resource>`), so servers that share a resource share
 * its tokens, and a server that moves to another issuer finds none. Values are
 * JSON; a damaged one reads as absent.
 */
export class SignInRecords {
  readonly #storage: AuthStorage;

  constructor(storage: AuthStorage) {
    this.#storage = storage;
  }

  async readBinding(serverUrl: string | URL): Promise<OAuthServerBinding | undefined> {
    const parsed = OAuthServerBindingSchema.safeParse(
      parseJson(await this.#storage.get(bindingKey(serverUrl))),
    );
    if (!parsed.success) return undefined;
    const metadata = OAuthProtectedResourceMetadataSchema.safeParse(parsed.data.resourceMetadata);
    return {
      issuer: parsed.data.issuer,
      resource: parsed.data.resource,
      resourceMetadataUrl: parsed.data.resourceMetadataUrl,
      resourceMetadata: metadata.success ? metadata.data : undefined,
    };
  }

  async writeBinding(serverUrl: string | URL, record: OAuthServerBinding): Promise<void> {
    const key = bindingKey(serverUrl);
    const text = JSON.stringify(record);
    if ((await this.#storage.get(key)) !== text) await this.#storage.set(key, text);
  }

  async deleteServer(serverUrl: string | URL): Promise<void> {
    await this.#storage.delete(bindingKey(serverUrl));
  }

  async readSignIn(key: SignInKey): Promise<SignInRecord | undefined> {
    const parsed = SignInRecordSchema.safeParse(parseJson(await this.#storage.get(signInKey(key))));
    if (!parsed.success) return undefined;
    const { client, tokens, ...rest } = parsed.data;
    const info = client
      ? OAuthClientInformationFullSchema.partial({ redirect_uris: true }).safeParse(client.info)
      : undefined;
    const token = tokens === undefined ? undefined : OAuthTokensSchema.safeParse(tokens);
    // The SDK's schemas keep its `issuer` stamp, which must round-trip.
    return {
      ...rest,
      ...(client && info?.success
        ? { client: { info: info.data as OAuthClientInformationMixed, source: client.source } }
        : {}),
      ...(token?.success ? { tokens: token.data } : {}),
    };
  }

  /**
   * Changes one sign-in record: `change` gets the current one (or `{}`) and
   * returns the new one, or `undefined` to delete it. Changes in this process
   * run one after another per record.
   */
  updateSignIn(key: SignInKey, change: (record: SignInRecord) => SignInRecord | undefined): Promise<void> {
    const storageKey = signInKey(key);
    const previous = updates.get(storageKey) ?? Promise.resolve();
    const next = previous.then(async () => {
      const updated = change((await this.readSignIn(key)) ?? {});
      if (updated === undefined || Object.values(updated).every((value) => value === undefined)) {
        await this.#storage.delete(storageKey);
      } else {
        await this.#storage.set(storageKey, JSON.stringify(updated));
      }
    });
    const settled = next.catch(() => undefined);
    updates.set(storageKey, settled);
    settled.then(() => {
      if (updates.get(storageKey) === settled) updates.delete(storageKey);
    });
    return next;
  }

  async deleteSignIn(key: SignInKey): Promise<void> {
    await this.updateSignIn(key, () => undefined);
  }
}
