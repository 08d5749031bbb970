/**
 * Environment variable names that look like secrets. The client does not pass
 * them on to a server unless its config's `env` sets them (`"X": "${X}"`) or
 * its `envPassthrough` names them; messages hide the values a config's `env`
 * gives them. Any case; a name matches when it contains `TOKEN`, `SECRET`,
 * `PASSWORD`, `PASSWD`, `API_KEY`/`APIKEY`, `CREDENTIAL`, `ACCESS_KEY`,
 * `PRIVATE_KEY`, `SIGNING_KEY`, `DATABASE_URL`, `WEBHOOK`, `JWT` or `COOKIE`;
 * ends in `_PASS`, `_PAT` or `_DSN` (or is one of them); starts with
 * `NPM_CONFIG__AUTH`; or is `SSH_AUTH_SOCK` (the key agent: it signs as you).
 */
export const SECRET_ENV_NAME_PATTERN: RegExp =
  /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIAL|ACCESS_KEY|PRIVATE_KEY|SIGNING_KEY|DATABASE_URL|WEBHOOK|JWT|COOKIE|(?:^|_)(?:PASS|PAT|DSN)$|^NPM_CONFIG__AUTH|^SSH_AUTH_SOCK$/i;

/** True when `name` looks like it holds a secret (see {@link SECRET_ENV_NAME_PATTERN}). */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME_PATTERN.test(name);
}
