import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Chapa's API (https://developer.chapa.co) for tests: initialize and verify as
 * documented, and refunds (POST /v1/refund/{tx_ref}) (Bearer secret key, JSON answers { message, status, data }), recorded requests, an outcome
 * chosen by the test for each tx_ref, and signed webhooks.
 */
export interface StubTransaction {
  tx_ref: string;
  amount: string;
  currency: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  callback_url?: string;
  return_url?: string;
  customization?: Record<string, unknown>;
  reference: string;
  /** What verify reports; 'pending' until the test decides. */
  status: 'pending' | 'success' | 'failed';
  /** Overrides of what verify reports, to simulate a tampered payment. */
  reportedAmount?: string | number;
  reportedCurrency?: string;
  /** ETB refunded so far through POST /v1/refund/{tx_ref}. */
  refunded?: number;
  created_at: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization?: string;
  body?: Record<string, unknown>;
}

export type StubMode = 'ok' | 'error500' | 'hangup';

export interface ChapaStub {
  url: string;
  requests: RecordedRequest[];
  transactions: Map<string, StubTransaction>;
  /** 'error500': every call answers 500 HTML; 'hangup': connections are dropped (unreachable). */
  mode: StubMode;
  /** Decides what verify reports for a transaction (optionally a different amount or currency). */
  settle(
    txRef: string,
    outcome: 'success' | 'failed' | 'pending',
    report?: { amount?: string | number; currency?: string },
  ): void;
  /** A webhook body for a transaction, as Chapa sends it, with its signature headers. */
  webhook(
    txRef: string,
    options?: { secret?: string; header?: 'x-chapa-signature' | 'chapa-signature' | 'both' },
  ): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startChapaStub(options: {
  secretKey: string;
  webhookSecret?: string;
}): Promise<ChapaStub> {
  const transactions = new Map<string, StubTransaction>();
  const requests: RecordedRequest[] = [];

  const stub: ChapaStub = {
    url: '',
    requests,
    transactions,
    mode: 'ok',
    settle(txRef, outcome, report) {
      const tx = transactions.get(txRef);
      if (!tx) throw new Error(`stub: unknown tx_ref ${txRef}`);
      tx.status = outcome;
      tx.reportedAmount = report?.amount;
      tx.reportedCurrency = report?.currency;
    },
    webhook(txRef, opts = {}) {
      const tx = transactions.get(txRef);
      const payload = {
        event: tx?.status === 'failed' ? 'charge.failed' : 'charge.success',
        first_name: tx?.first_name ?? 'Abebe',
        last_name: tx?.last_name ?? 'Kebede',
        email: tx?.email ?? 'abebe@example.et',
        mobile: null,
        currency: tx?.reportedCurrency ?? tx?.currency ?? 'ETB',
        amount: String(tx?.reportedAmount ?? tx?.amount ?? '0'),
        charge: '0.00',
        status: tx?.status === 'failed' ? 'failed' : 'success',
        failure_reason: null,
        mode: 'test',
        reference: tx?.reference ?? 'APunknown',
        created_at: tx?.created_at ?? new Date().toISOString(),
        updated_at: new Date().toISOString(),
        type: 'API',
        tx_ref: txRef,
        payment_method: 'test',
        customization: tx?.customization ?? {},
        meta: null,
      };
      const body = JSON.stringify(payload);
      const secret = opts.secret ?? options.webhookSecret ?? '';
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      const header = opts.header ?? 'both';
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (header === 'both' || header === 'x-chapa-signature') headers['x-chapa-signature'] = signature;
      if (header === 'both' || header === 'chapa-signature') headers['chapa-signature'] = signature;
      return { body, headers };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = (req.url ?? '/').split('?')[0];
      let body: Record<string, unknown> | undefined;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
      } catch {
        body = undefined;
      }
      requests.push({ method: req.method ?? 'GET', path, authorization: req.headers.authorization, body });

      if (stub.mode === 'hangup') return req.socket.destroy();
      if (stub.mode === 'error500') {
        res.writeHead(500, { 'Content-Type': 'text/html' });
        return res.end('<html><body>Internal Server Error</body></html>');
      }
      if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
        return send(res, 401, {
          message: "Invalid API Key or User doesn't exist",
          status: 'failed',
          data: null,
        });
      }

      if (req.method === 'POST' && path === '/v1/transaction/initialize') {
        const problems: Record<string, string[]> = {};
        if (!body) return send(res, 400, { message: 'Invalid JSON', status: 'failed', data: null });
        if (typeof body.amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(body.amount))
          problems.amount = ['The amount must be a number.'];
        if (typeof body.currency !== 'string' || !['ETB', 'USD'].includes(body.currency))
          problems.currency = ['The currency is invalid.'];
        if (typeof body.tx_ref !== 'string' || !body.tx_ref)
          problems.tx_ref = ['The tx ref field is required.'];
        if (body.email !== undefined && (typeof body.email !== 'string' || !body.email.includes('@')))
          problems.email = ['The email must be a valid email address.'];
        if (Object.keys(problems).length)
          return send(res, 400, { message: problems, status: 'failed', data: null });
        const txRef = body.tx_ref as string;
        if (transactions.has(txRef)) {
          return send(res, 400, {
            message: 'Transaction reference has been used before',
            status: 'failed',
            data: null,
          });
        }
        const customization = (body.customization as Record<string, unknown> | undefined) ?? {
          title: body['customization[title]'],
          description: body['customization[description]'],
        };
        transactions.set(txRef, {
          tx_ref: txRef,
          amount: body.amount as string,
          currency: body.currency as string,
          email: body.email as string | undefined,
          first_name: body.first_name as string | undefined,
          last_name: body.last_name as string | undefined,
          callback_url: body.callback_url as string | undefined,
          return_url: body.return_url as string | undefined,
          customization,
          reference: `AP${randomBytes(5).toString('hex')}`,
          status: 'pending',
          created_at: new Date().toISOString(),
        });
        return send(res, 200, {
          message: 'Hosted Link',
          status: 'success',
          data: { checkout_url: `${stub.url}/checkout/payment/${randomBytes(12).toString('hex')}` },
        });
      }

      const verify = req.method === 'GET' && /^\/v1\/transaction\/verify\/([^/]+)$/.exec(path);
      if (verify) {
        const tx = transactions.get(decodeURIComponent(verify[1]));
        if (!tx) {
          return send(res, 404, {
            message: 'Invalid transaction or Transaction not found',
            status: 'failed',
            data: null,
          });
        }
        return send(res, 200, {
          message: 'Payment details',
          status: 'success',
          data: {
            first_name: tx.first_name,
            last_name: tx.last_name,
            email: tx.email,
            currency: tx.reportedCurrency ?? tx.currency,
            amount: tx.reportedAmount ?? Number(tx.amount),
            charge: 0,
            mode: 'test',
            method: 'test',
            type: 'API',
            status: tx.status,
            reference: tx.reference,
            tx_ref: tx.tx_ref,
            customization: tx.customization,
            meta: null,
            created_at: tx.created_at,
            updated_at: new Date().toISOString(),
          },
        });
      }
      // POST /v1/refund/{tx_ref} { reason, amount, meta, reference }: a successful transaction only,
      // never more than what is left of it
      const refund = req.method === 'POST' && /^\/v1\/refund\/([^/]+)$/.exec(path);
      if (refund) {
        const tx = transactions.get(decodeURIComponent(refund[1]));
        if (!tx || tx.status !== 'success')
          return send(res, 400, {
            message: 'Transaction not found or not successful',
            status: 'failed',
            data: null,
          });
        const amount =
          body?.amount === undefined ? Number(tx.amount) - (tx.refunded ?? 0) : Number(body.amount);
        if (!Number.isFinite(amount) || amount <= 0 || amount > Number(tx.amount) - (tx.refunded ?? 0) + 1e-9)
          return send(res, 400, {
            message: 'Refund amount exceeds the refundable amount',
            status: 'failed',
            data: null,
          });
        tx.refunded = (tx.refunded ?? 0) + amount;
        return send(res, 200, {
          message: 'Refund processed successfully',
          status: 'success',
          data: {
            ref_id: `RF${randomBytes(5).toString('hex')}`,
            merchant_reference: body?.reference ?? null,
            tx_ref: tx.tx_ref,
            amount: amount.toFixed(2),
            currency: tx.currency,
            status: 'success',
          },
        });
      }
      return send(res, 404, { message: 'Not found', status: 'failed', data: null });
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}
