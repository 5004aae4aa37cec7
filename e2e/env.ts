import { E2E_PORT } from '../playwright.config'

/** Settings shared by the server the run starts and the specs that talk to it. */
export const e2e = {
  port: E2E_PORT,
  baseUrl: `http://127.0.0.1:${E2E_PORT}`,
  inboxUrl: `http://127.0.0.1:${E2E_PORT + 1}/messages`,
  admin: { username: 'admin', password: 'admin-password-e2e', email: 'admin@podclub.test' },
  clubCode: 'e2eclub',
  /**
   * The ports of the servers a spec starts for itself (demo data it may change, or a club where
   * nothing else happens), one each, so that specs can run side by side. One spec's repeats
   * (`--repeat-each`) share its port: run them with `--workers 1`.
   */
  ownServerPort: {
    controlPanel: E2E_PORT + 2,
    detail: E2E_PORT + 3,
    layout: E2E_PORT + 4,
    ownData: E2E_PORT + 5,
    profile: E2E_PORT + 6,
    idle: E2E_PORT + 7,
  },
}
