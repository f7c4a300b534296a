import type { SmsGateway } from './transport';

/**
 * AfroMessage (https://afromessage.com/developers), an Ethiopian SMS gateway:
 * `POST {base}/api/send` with `Authorization: Bearer <token>` and a JSON body
 * `{ from: <identifier id>, sender: <sender name>, to: <phone>, message }`; it answers
 * `{ acknowledge: "success", response: { message_id, ... } }` or `{ acknowledge: "error", response: { errors: [...] } }`.
 */
export class AfroMessageGateway implements SmsGateway {
  readonly name = 'afromessage';

  constructor(
    private readonly options: { token: string; baseUrl: string; identifier?: string; sender?: string },
  ) {}

  async send(to: string, text: string): Promise<{ id: string }> {
    const body: Record<string, string> = { to, message: text };
    if (this.options.identifier) body.from = this.options.identifier;
    if (this.options.sender) body.sender = this.options.sender;
    const response = await fetch(`${this.options.baseUrl}/api/send`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.options.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const raw = await response.text();
    let answer: { acknowledge?: string; response?: { message_id?: string; errors?: unknown } } = {};
    try {
      answer = JSON.parse(raw) as typeof answer;
    } catch {
      throw new Error(`AfroMessage answered HTTP ${response.status} without JSON`);
    }
    if (!response.ok || answer.acknowledge !== 'success') {
      const errors = answer.response?.errors;
      throw new Error(
        `AfroMessage refused the SMS (HTTP ${response.status}): ${Array.isArray(errors) ? errors.join('; ') : 'unknown error'}`,
      );
    }
    return { id: String(answer.response?.message_id ?? '') };
  }
}

/** No SMS gateway configured: every SMS fails with a clear reason and stays visible in the outbox. */
export class NoSmsGateway implements SmsGateway {
  readonly name = 'none';
  send(): Promise<{ id: string }> {
    return Promise.reject(new Error('No SMS gateway configured (AFROMESSAGE_TOKEN)'));
  }
}
