import type { TestServer } from './test-server.ts';

/**
 * A function that creates a record through the facility's API (`POST {F}/{path}`) and returns
 * its id, throwing with the answer's body when the API refuses it: for test data set up by HTTP.
 */
export function recordCreator(server: TestServer, token: string, F: string) {
  return async (path: string, body: unknown): Promise<number> => {
    const res = await server.request<{ result: { id: number } }>('POST', `${F}/${path}`, {
      token,
      body,
    });
    if (res.status !== 200) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
    return res.body.result.id;
  };
}
