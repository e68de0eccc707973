import { describe, expect, it } from 'vitest';
import { serverPerTest } from './perTest.js';
import { HttpError, requestJson } from './todoApi.js';

const server = serverPerTest({ pageSize: 2 });

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('the test server', () => {
  it('serves the todos, filtered by userId and paged', async () => {
    expect(await requestJson(`${server.url}/todos`)).toEqual(server.todos);
    expect(await requestJson(`${server.url}/todos?userId=2`)).toEqual([server.todos[2]]);
    expect(await requestJson(`${server.url}/todos?page=1`)).toEqual(server.todos.slice(0, 2));
    expect(await requestJson(`${server.url}/todos?page=2`)).toEqual(server.todos.slice(2, 4));
    expect(await requestJson(`${server.url}/todos?userId=1&page=2`)).toEqual([]);
    expect(await requestJson(`${server.url}/todos/3`)).toEqual({
      id: 3,
      title: 'ship',
      completed: false,
      userId: 2,
    });
  });

  it('creates, replaces, patches and deletes', async () => {
    const created = await requestJson(`${server.url}/todos`, json('POST', { title: 'new' }));
    expect(created).toEqual({ id: 4, title: 'new', completed: false, userId: 0 });
    expect(await requestJson(`${server.url}/todos/4`, json('PUT', { title: 'put' }))).toEqual({
      id: 4,
      title: 'put',
      completed: false,
      userId: 0,
    });
    expect(await requestJson(`${server.url}/todos/4`, json('PATCH', { userId: 2 }))).toEqual({
      id: 4,
      title: 'put',
      completed: false,
      userId: 2,
    });
    expect(await requestJson(`${server.url}/todos/4`, { method: 'DELETE' })).toBeUndefined();
    expect(server.todos.map((todo) => todo.id)).toEqual([1, 2, 3]);
    await expect(requestJson(`${server.url}/todos/4`)).rejects.toMatchObject({ status: 404 });
  });

  it('records every request with its method, url, headers and body', async () => {
    await requestJson(`${server.url}/todos/1`, {
      ...json('PATCH', { completed: true }),
      headers: { 'content-type': 'application/json', 'x-token': 'secret' },
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: 'PATCH',
      url: '/todos/1',
      body: '{"completed":true}',
      headers: { 'x-token': 'secret', 'content-type': 'application/json' },
    });
  });

  it('fails the next request with the given status, then serves normally', async () => {
    server.failNext(500);
    const error = await requestJson(`${server.url}/todos`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(500);
    expect(await requestJson(`${server.url}/todos`)).toHaveLength(3);
  });

  it('answers non-JSON text when told to', async () => {
    server.respondNext({ body: 'plain words', contentType: 'text/plain' });
    expect(await requestJson(`${server.url}/todos/1`)).toBe('plain words');
  });

  it('holds answers back in slow mode', async () => {
    server.setDelay(80);
    const started = Date.now();
    const answer = requestJson(`${server.url}/todos/1`);
    const request = await server.waitForRequest();
    expect(request.url).toBe('/todos/1');
    await answer;
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
  });

  it('holds an answer made from the data at its arrival until it is released', async () => {
    const held = server.holdNext();
    let answered = false;
    const list = requestJson(`${server.url}/todos`).then((body) => {
      answered = true;
      return body;
    });
    expect((await held.arrived).url).toBe('/todos');
    // Later requests are answered meanwhile; the held list still has the todo deleted since.
    await requestJson(`${server.url}/todos/2`, { method: 'DELETE' });
    expect(await requestJson(`${server.url}/todos`)).toEqual([server.todos[0], server.todos[1]]);
    expect(answered).toBe(false);
    held.release();
    expect(((await list) as { id: number }[]).map((todo) => todo.id)).toEqual([1, 2, 3]);
  });

  it('refuses connections once closed', async () => {
    await server.close();
    await expect(requestJson(`${server.url}/todos`)).rejects.toThrow(/fetch failed/);
  });
});
