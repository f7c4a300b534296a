/** What the outbox worker hands a transport; the transport answers the provider's id of the message. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Stable per outbox message, so a retried delivery can be recognised downstream. */
  messageId: string;
}

export interface EmailTransport {
  send(message: OutgoingEmail): Promise<{ id: string }>;
  close?(): void;
}

/** An SMS gateway behind one interface, so another provider can be added beside AfroMessage. */
export interface SmsGateway {
  readonly name: string;
  send(to: string, text: string): Promise<{ id: string }>;
}

export const EMAIL_TRANSPORT = Symbol('EMAIL_TRANSPORT');
export const SMS_GATEWAY = Symbol('SMS_GATEWAY');
