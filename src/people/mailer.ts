import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { peopleConfig, type PeopleConfig } from '../config/app-config';

/** A mail the service sends: invitations and password resets. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Mail over SMTP (`SMTP_URL`, from `MAIL_FROM`), through nodemailer; without `SMTP_URL` nothing is sent. A mail
 * that cannot be sent is logged (never its text: it holds a token) and does not fail what asked for it: an
 * invitation's answer carries its link anyway, and a reset's answer says nothing either way.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger(Mailer.name);
  private readonly transport: Transporter | null;

  constructor(@Inject(peopleConfig.KEY) private readonly config: PeopleConfig) {
    this.transport = config.smtpUrl === undefined ? null : createTransport(config.smtpUrl);
  }

  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Sends the mail; whether it was handed to the SMTP server. */
  async send(mail: Mail): Promise<boolean> {
    if (this.transport === null) return false;
    try {
      await this.transport.sendMail({ from: this.config.mailFrom, ...mail });
      return true;
    } catch (error) {
      const reason =
        error instanceof Error ? ((error as Error & { code?: string }).code ?? error.name) : 'unknown';
      this.logger.warn(`A mail ("${mail.subject}") could not be sent: ${reason}`);
      return false;
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
