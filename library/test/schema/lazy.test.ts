import { describe, expect, expectTypeOf, it } from 'vitest';
import { createStore, Endpoint, Entity, schema } from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';

const server = serverPerTest();

class Building extends Entity {
  id = 0;
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'Building';
}

class Department extends Entity {
  id = 0;
  name = '';
  buildings: string[] = [];
  head = '';
  pk() {
    return this.id;
  }
  static override key = 'Department';
  static override schema = {
    buildings: new schema.Lazy([Building]),
    head: new schema.Lazy(Building),
  };
}

const getDepartment = new Endpoint(
  ({ id }: { id: number }) =>
    fetch(`${server.url}/departments/${id}`).then((response) => response.json()),
  { name: 'getDepartment', schema: Department },
);

const DEPARTMENT = {
  id: 1,
  name: 'Physics',
  buildings: [
    { id: 10, name: 'North' },
    { id: 11, name: 'South' },
  ],
  head: { id: 12, name: 'Main' },
};

describe('schema.Lazy', () => {
  it('stores the relation, and the field reads as the stored pks', async () => {
    const { controller, getState } = createStore();
    server.respondNext({ body: DEPARTMENT });
    await controller.fetch(getDepartment, { id: 1 });
    const department = controller.getResponse(getDepartment, { id: 1 }, getState()).data;
    expect(department?.buildings).toEqual(['10', '11']);
    expect(department?.head).toBe('12');
    expect(controller.get(Building, { id: 11 }, getState())?.name).toBe('South');
    expectTypeOf(Department.schema.buildings).toEqualTypeOf<schema.Lazy<(typeof Building)[]>>();
  });

  it('.query reads the relation: a list from the stored pks, an entity from its pk fields', async () => {
    const { controller, getState } = createStore();
    server.respondNext({ body: DEPARTMENT });
    await controller.fetch(getDepartment, { id: 1 });
    const department = controller.getResponse(getDepartment, { id: 1 }, getState()).data;
    const buildings = controller.get(
      Department.schema.buildings.query,
      department?.buildings,
      getState(),
    );
    expect(buildings?.map((building) => building.name)).toEqual(['North', 'South']);
    expect(buildings?.[0]).toBeInstanceOf(Building);
    const head = controller.get(Department.schema.head.query, { id: 12 }, getState());
    expect(head).toBeInstanceOf(Building);
    expect(head?.name).toBe('Main');
    expect(Department.schema.buildings.query).toBe(Department.schema.buildings.query);
  });
});
