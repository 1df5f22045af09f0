import type { TestServer } from '#server/test/test-server.ts';

export { facilityPath } from '#server/test/test-server.ts';

export type Res = { status: number; body: Record<string, any>; headers: Headers; raw: Buffer }; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies are checked by the assertions

/** Sends a create or edit as the client does with a document: a `data` JSON part and a file. */
export async function sendMultipart(
  server: TestServer,
  token: string,
  path: string,
  data: unknown,
  file?: { name: string; bytes: Uint8Array },
): Promise<Res> {
  const form = new FormData();
  form.append('data', JSON.stringify(data));
  if (file) form.append('document', new Blob([new Uint8Array(file.bytes)]), file.name);
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { token },
    body: form,
  });
  return read(response);
}

/** A GET whose raw bytes are kept, for downloads. */
export async function download(server: TestServer, token: string, path: string): Promise<Res> {
  return read(await fetch(server.url + path, { headers: { token } }));
}

async function read(response: Response): Promise<Res> {
  const raw = Buffer.from(await response.arrayBuffer());
  let body: Record<string, unknown> = {};
  if ((response.headers.get('content-type') ?? '').includes('json'))
    body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  return { status: response.status, body, headers: response.headers, raw };
}

export async function countAttachments(server: TestServer): Promise<number> {
  const [row] = await server.db.query<{ n: number }>('select count(*)::int as n from attachments');
  return row!.n;
}
