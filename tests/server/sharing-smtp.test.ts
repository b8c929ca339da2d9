// Invitations through a real SMTP server on 127.0.0.1 (smtp-server): the message is delivered with
// SMTP authentication, read back, and its join link joins. Mail failures (a rejected recipient, a
// mail server that is down) keep the invitation pending; sending again, or `invite:resend`, delivers it.
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/process.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { joinLinkIn, outbox, readMessage } from './sharing-mail.js';
import { createCollection } from './sharing-setup.js';

interface Delivered {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}

/** A real SMTP server on loopback: requires AUTH (mailer / s3cret), keeps what it receives. */
class MailServer {
  delivered: Delivered[] = [];
  reject = new Set<string>();
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = this.make();
  }

  private make(): SMTPServer {
    return new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, cb) => {
        if (auth.username === 'mailer' && auth.password === 's3cret') cb(null, { user: auth.username });
        else cb(new Error('Invalid username or password'));
      },
      onRcptTo: (address, _session, cb) => {
        if (this.reject.has(address.address)) {
          const err = new Error('Mailbox unavailable') as Error & { responseCode: number };
          err.responseCode = 550;
          cb(err);
        } else cb();
      },
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.delivered.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((a) => a.address),
            user: session.user as string | undefined,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          cb();
        });
      },
    });
  }

  listen(port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.port = (this.server.server.address() as { port: number }).port;
        resolve(this.port);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Stops listening, and makes a fresh server for a later listen() on the same port. */
  async stop(): Promise<void> {
    await this.close();
    this.server = this.make();
  }

  to(email: string): Delivered[] {
    return this.delivered.filter((d) => d.to.includes(email));
  }
}

const smtpConfig = (port: number) => ({
  host: '127.0.0.1',
  port,
  secure: false,
  user: 'mailer',
  pass: 's3cret',
  from: 'Tidemark Invitations <invites@tidemark.test>',
  timeoutMs: 5000,
});

describe('invitations through a real SMTP server', () => {
  let mail: MailServer;
  let s: TestServer;
  beforeAll(async () => {
    mail = new MailServer();
    await mail.listen();
    s = await startServer({ smtp: smtpConfig(mail.port) });
  });
  afterAll(async () => {
    await s.close();
    await mail.close();
  });

  it('delivers the invitation; its join link makes the recipient a collaborator', async () => {
    const owner = await s.createUser(undefined, { name: 'Sam Sender' });
    const friend = await s.createUser();
    const c = await createCollection(s, owner, 'Holiday plans');
    const res = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'member', emails: [friend.email] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, emails: [friend.email] });

    const [message] = mail.to(friend.email);
    expect(message).toBeDefined();
    expect(message.user).toBe('mailer'); // the service authenticated with the configured SMTP user
    expect(message.from).toBe('invites@tidemark.test');
    const read = readMessage(message.raw);
    expect(read.headers.from).toBe('Tidemark Invitations <invites@tidemark.test>');
    expect(read.headers.to).toBe(friend.email);
    expect(read.headers.subject).toBe('Sam Sender shared "Holiday plans" with you on Tidemark');
    expect(outbox(s.dataDir)).toEqual([]); // nothing went to the dev outbox

    const link = joinLinkIn(read.text);
    expect(new URL(link.url).origin).toBe(s.origin);
    expect(read.html).toContain(link.url.replace(/&/g, '&amp;'));
    const joined = await s.api('POST', `/collection/${link.collectionId}/join`, { token: friend.token, body: { token: link.token } });
    expect(joined.status).toBe(200);
    expect(joined.body.item).toMatchObject({ _id: c, access: { level: 3, draggable: true } });
    const created = await s.api('POST', '/bookmark', { token: friend.token, body: { link: 'https://example.com/plan', collectionId: c } });
    expect(created.status).toBe(200);
    expect(created.body.item.user.$id).toBe(owner.id);
  });

  it('a rejected mail keeps the invitation pending with the reason; inviting again resends it', async () => {
    const owner = await s.createUser();
    const [ok, bounced] = [await s.createUser(), await s.createUser()];
    const c = await createCollection(s, owner, 'Flaky mail');
    mail.reject.add(bounced.email);
    const res = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'viewer', emails: [ok.email, bounced.email] } });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ result: false, status: 502, emails: [ok.email, bounced.email], unsent: [bounced.email] });
    expect(res.body.errorMessage).toContain(bounced.email);
    expect(res.body.errorMessage).toContain('send the same request again');
    expect(mail.to(ok.email)).toHaveLength(1);
    expect(mail.to(bounced.email)).toHaveLength(0);

    const pending = (await s.api('GET', `/collection/${c}/sharing`, { token: owner.token })).body.invitations;
    const entry = pending.find((i: { email: string }) => i.email === bounced.email);
    expect(entry).toMatchObject({ role: 'viewer', sent: false, expired: false });
    expect(entry.lastError).toMatch(/550|Mailbox unavailable/);

    mail.reject.delete(bounced.email);
    const again = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'viewer', emails: [bounced.email] } });
    expect(again.status).toBe(200);
    const [delivered] = mail.to(bounced.email);
    const link = joinLinkIn(readMessage(delivered.raw).text);
    expect((await s.api('POST', `/collection/${c}/join`, { token: bounced.token, body: { token: link.token } })).status).toBe(200);
    const after = (await s.api('GET', `/collection/${c}/sharing`, { token: owner.token })).body;
    expect(after.invitations.map((i: { email: string }) => i.email)).toEqual([ok.email]);
    expect(after.items.map((i: { _id: number }) => i._id)).toEqual([owner.id, bounced.id]);
  });
});

describe('when the mail server is down', () => {
  it('the invitation stays pending, and invite:resend delivers it once the server is back', { timeout: 60_000 }, async () => {
    const mail = new MailServer();
    const port = await mail.listen();
    await mail.stop(); // nothing listens on `port` now
    const s = await startServer({ smtp: smtpConfig(port) });
    try {
      const owner = await s.createUser();
      const friend = await s.createUser();
      const c = await createCollection(s, owner, 'Offline mail');
      const res = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'member', emails: [friend.email] } });
      expect(res.status).toBe(502);
      expect(res.body.errorMessage).toContain(`the mail server 127.0.0.1:${port} refused the connection`);
      const pending = (await s.api('GET', `/collection/${c}/sharing`, { token: owner.token })).body.invitations;
      expect(pending).toEqual([expect.objectContaining({ email: friend.email, sent: false })]);

      await mail.listen(port);
      const out = await runCliAsync(['invite:resend', ...s.cliArgs], {
        TIDEMARK_SMTP_HOST: '127.0.0.1',
        TIDEMARK_SMTP_PORT: String(port),
        TIDEMARK_SMTP_USER: 'mailer',
        TIDEMARK_SMTP_PASS: 's3cret',
        TIDEMARK_PUBLIC_URL: s.origin,
      });
      expect(out.status, out.stderr).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual({ sent: [friend.email], failed: [] });
      const [delivered] = mail.to(friend.email);
      const link = joinLinkIn(readMessage(delivered.raw).text);
      expect(new URL(link.url).origin).toBe(s.origin);
      expect((await s.api('POST', `/collection/${c}/join`, { token: friend.token, body: { token: link.token } })).status).toBe(200);

      // Nothing is left to resend.
      const again = await runCliAsync(['invite:resend', ...s.cliArgs], { TIDEMARK_SMTP_HOST: '127.0.0.1', TIDEMARK_SMTP_PORT: String(port) });
      expect(JSON.parse(again.stdout)).toEqual({ sent: [], failed: [] });
    } finally {
      await s.close();
      await mail.close();
    }
  });
});
