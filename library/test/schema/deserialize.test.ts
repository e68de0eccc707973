import { describe, expect, it } from 'vitest';
import { createStore, Endpoint, Entity } from '../../src/index.js';
import { plain } from '../fixtures.js';

/** A value class a field can be read as: constructed with `new`. */
class Money {
  constructor(readonly text: string) {}
  get cents(): number {
    return Math.round(Number.parseFloat(this.text) * 100);
  }
}

class Order extends Entity {
  id = '';
  createdAt = new Date(0);
  quantity = 0;
  total = new Money('0');
  code = '';
  pk() {
    return this.id;
  }
  static override key = 'Order';
  static override schema = {
    createdAt: Date,
    quantity: Number,
    total: Money,
    code: (value: string) => value.toUpperCase(),
  };
}

const order = {
  id: 'o-1',
  createdAt: '2026-11-24T10:00:00.000Z',
  quantity: '3',
  total: '12.50',
  code: 'abc',
};

const getOrder = new Endpoint(async (_params: { id: string }) => order, {
  schema: Order,
  key: (params: { id: string }) => `order ${params.id}`,
});
const getSummary = new Endpoint(async () => ({ order, at: '2026-01-02T00:00:00.000Z' }), {
  schema: { order: Order, at: Date },
  key: () => 'summary',
});

describe('entity field deserializers (static schema = { createdAt: Date, … })', () => {
  it('reads each field as its type: Date and classes with new, functions called', async () => {
    const { controller, getState } = createStore();
    const read = await controller.fetch(getOrder, { id: 'o-1' });
    for (const value of [read, controller.getResponse(getOrder, { id: 'o-1' }, getState()).data]) {
      expect(value?.createdAt).toBeInstanceOf(Date);
      expect(value?.createdAt.toISOString()).toBe('2026-11-24T10:00:00.000Z');
      expect(value?.quantity).toBe(3);
      expect(value?.total).toBeInstanceOf(Money);
      expect(value?.total.cents).toBe(1250);
      expect(value?.code).toBe('ABC');
    }
  });

  it('stores the values as they came, so the state stays JSON', async () => {
    const { controller, getState } = createStore();
    await controller.fetch(getOrder, { id: 'o-1' });
    expect(plain(getState().entities).Order?.['o-1']).toEqual(order);
    expect(JSON.parse(JSON.stringify(getState().entities))).toEqual(plain(getState().entities));
  });

  it('keeps the default when the response lacks the field', async () => {
    const { controller, getState } = createStore();
    await controller.setResponse(getOrder, { id: 'o-2' }, { id: 'o-2' });
    const read = controller.getResponse(getOrder, { id: 'o-2' }, getState()).data;
    expect(read?.createdAt.getTime()).toBe(0);
    expect(read?.total.text).toBe('0');
  });

  it('reads the same unchanged entity twice as the same instance and the same Date', async () => {
    const { controller, getState } = createStore();
    await controller.fetch(getOrder, { id: 'o-1' });
    const first = controller.getResponse(getOrder, { id: 'o-1' }, getState()).data;
    const second = controller.getResponse(getOrder, { id: 'o-1' }, getState()).data;
    expect(second).toBe(first);
    expect(second?.createdAt).toBe(first?.createdAt);
  });

  it('works in a plain object schema too', async () => {
    const { controller } = createStore();
    const summary = await controller.fetch(getSummary);
    expect(summary.at).toBeInstanceOf(Date);
    expect(summary.at.getUTCFullYear()).toBe(2026);
    expect(summary.order.createdAt).toBeInstanceOf(Date);
  });
});
