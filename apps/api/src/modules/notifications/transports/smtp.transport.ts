import { createTransport, type Transporter } from 'nodemailer';
import type { EmailTransport, OutgoingEmail } from './transport';

/** Email over SMTP with nodemailer (SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASSWORD, MAIL_FROM). */
export class SmtpTransport implements EmailTransport {
  private readonly transporter: Transporter;

  constructor(
    options: { host: string; port: number; secure: boolean; user?: string; password?: string },
    private readonly from: string,
  ) {
    this.transporter = createTransport({
      host: options.host,
      port: options.port,
      secure: options.secure,
      auth: options.user ? { user: options.user, pass: options.password ?? '' } : undefined,
      connectionTimeout: 15_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      // the local development server listens on loopback without TLS
      ignoreTLS: options.host === '127.0.0.1' && !options.user,
    });
  }

  async send(message: OutgoingEmail): Promise<{ id: string }> {
    const info = await this.transporter.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: message.messageId,
    });
    return { id: String(info.messageId ?? message.messageId) };
  }

  close(): void {
    this.transporter.close();
  }
}
