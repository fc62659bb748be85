// A company's structure set up over real HTTP by its admin: areas (a deletion that would strand people is refused
// unless they move), news (scheduled ones hidden from players), extra-field definitions (validated, reordered,
// deleted with people's values). Another company's admin reaches none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let tokens: Record<'admin' | 'player' | 'globexAdmin', string>;
beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['admin', 'player', 'globexAdmin']);
});
afterAll(() => s?.close());

type Errors = { errors?: Array<{ message: string; extensions: { code: string; argumentName?: string } }> };
const refusal = (r: Errors) =>
  r.errors?.[0] && { code: r.errors[0].extensions.code, field: r.errors[0].extensions.argumentName };
const as = (who: keyof typeof tokens) => bearer(tokens[who]);

const CREATE_AREA = 'mutation($i: CreateAreaInput!) { createArea(input: $i) { id name level } }';
const DELETE_AREA = 'mutation($id: Int!, $to: Int) { deleteArea(areaId: $id, moveUsersToAreaId: $to) }';

describe('areas', () => {
  it('builds the tree three levels deep, siblings named once', async () => {
    const top = await s.gql(CREATE_AREA, { i: { name: 'Sales' } }, as('admin'));
    expect(top.data.createArea).toMatchObject({ name: 'Sales', level: 1 });
    const mid = await s.gql(CREATE_AREA, { i: { name: 'North', parentAreaId: top.data.createArea.id } }, as('admin'));
    const low = await s.gql(CREATE_AREA, { i: { name: 'Team A', parentAreaId: mid.data.createArea.id } }, as('admin'));
    expect(low.data.createArea.level).toBe(3);
    const tooDeep = await s.gql(CREATE_AREA, { i: { name: 'X', parentAreaId: low.data.createArea.id } }, as('admin'));
    expect(refusal(tooDeep)).toEqual({ code: 'BAD_USER_INPUT', field: 'parentAreaId' });
    expect(refusal(await s.gql(CREATE_AREA, { i: { name: 'Sales' } }, as('admin')))).toEqual({
      code: 'CONFLICT',
      field: 'name',
    });
    const renamed = await s.gql(
      'mutation($id: Int!) { updateArea(areaId: $id, input: { name: "Sales & Ops" }) { name } }',
      { id: top.data.createArea.id },
      as('admin'),
    );
    expect(renamed.data.updateArea.name).toBe('Sales & Ops');
    expect(refusal(await s.gql(CREATE_AREA, { i: { name: 'Y' } }, as('player')))?.code).toBe('FORBIDDEN');
  });

  it('refuses to strand people; moves them to a same-level area when asked', async () => {
    const p = s.t.db.prisma;
    const demo = s.demo.companies.DEMO;
    const leaf = await p.area.findFirstOrThrow({ where: { companyId: demo, level: 3, usersLevel3: { some: {} } } });
    const parent = await p.area.findFirstOrThrow({ where: { id: leaf.parentAreaId! } });
    const people = await p.user.count({ where: { areaLevel3Id: leaf.id } });
    expect(refusal(await s.gql(DELETE_AREA, { id: leaf.id }, as('admin')))?.code).toBe('CONFLICT');
    expect(refusal(await s.gql(DELETE_AREA, { id: parent.id }, as('admin')))?.code).toBe('CONFLICT'); // has sub-areas
    const other = await p.area.findFirstOrThrow({ where: { companyId: demo, level: 3, id: { not: leaf.id } } });
    expect(refusal(await s.gql(DELETE_AREA, { id: leaf.id, to: parent.id }, as('admin')))?.field).toBe(
      'moveUsersToAreaId',
    );
    expect((await s.gql(DELETE_AREA, { id: leaf.id, to: other.id }, as('admin'))).data).toEqual({ deleteArea: true });
    const otherParent = await p.area.findUniqueOrThrow({ where: { id: other.parentAreaId! } });
    const moved = await p.user.findMany({ where: { areaLevel3Id: other.id } });
    expect(moved.length).toBeGreaterThanOrEqual(people);
    for (const u of moved) expect([u.areaLevel2Id, u.areaLevel1Id]).toEqual([otherParent.id, otherParent.parentAreaId]);
    expect(await p.area.findUnique({ where: { id: leaf.id } })).toBeNull();
  });

  it("another company's admin gets NOT_FOUND", async () => {
    const area = await s.t.db.prisma.area.findFirstOrThrow({ where: { companyId: s.demo.companies.DEMO } });
    expect(refusal(await s.gql(DELETE_AREA, { id: area.id }, as('globexAdmin')))?.code).toBe('NOT_FOUND');
  });
});

describe('news', () => {
  it('admins publish and schedule; players see what is published, newest first', async () => {
    const CREATE = 'mutation($i: NewsInput!) { createNews(input: $i) { id title publishedAt } }';
    const now = await s.gql(CREATE, { i: { title: 'Kickoff', body: 'The game starts.' } }, as('admin'));
    const later = await s.gql(
      CREATE,
      { i: { title: 'Soon', body: 'Later.', publishedAt: '2099-01-01T00:00:00.000Z' } },
      as('admin'),
    );
    expect(refusal(await s.gql(CREATE, { i: { title: 'No body' } }, as('admin')))).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'body',
    });
    expect(
      refusal(await s.gql(CREATE, { i: { title: 'x', body: 'y', imageUrl: 'ftp://x' } }, as('admin')))?.field,
    ).toBe('imageUrl');
    const NEWS = '{ news { title } }';
    expect((await s.gql(NEWS, {}, as('player'))).data.news.map((n: { title: string }) => n.title)).toContain('Kickoff');
    expect((await s.gql(NEWS, {}, as('player'))).data.news.map((n: { title: string }) => n.title)).not.toContain(
      'Soon',
    );
    expect((await s.gql(NEWS, {}, as('admin'))).data.news[0].title).toBe('Soon');
    const UPDATE = 'mutation($id: Int!) { updateNews(newsId: $id, input: { title: "Kick-off" }) { title } }';
    expect((await s.gql(UPDATE, { id: now.data.createNews.id }, as('admin'))).data.updateNews.title).toBe('Kick-off');
    expect(refusal(await s.gql(UPDATE, { id: now.data.createNews.id }, as('globexAdmin')))?.code).toBe('NOT_FOUND');
    const DELETE = 'mutation($id: Int!) { deleteNews(newsId: $id) }';
    expect((await s.gql(DELETE, { id: later.data.createNews.id }, as('admin'))).data).toEqual({ deleteNews: true });
  });
});

describe('extra fields', () => {
  it('defines, validates, reorders and deletes them with the values people gave', async () => {
    const CREATE = 'mutation($i: ExtraFieldInput!) { createExtraField(input: $i) { id name type order } }';
    const shirt = await s.gql(
      CREATE,
      { i: { name: 'shirtSize', kind: 'profile', type: 'select', settings: { options: ['S', 'M', 'L'] } } },
      as('admin'),
    );
    expect(shirt.data.createExtraField).toMatchObject({ name: 'shirtSize', type: 'select', order: 3 });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: 'noOptions', kind: 'profile', type: 'select' }, 'BAD_USER_INPUT', 'settings'],
      [{ name: '1bad', kind: 'profile', type: 'string' }, 'BAD_USER_INPUT', 'name'],
      [{ name: 'shirtSize', kind: 'profile', type: 'string' }, 'CONFLICT', 'name'],
      [{ name: 'where', kind: 'profile', type: 'string', onlyForAreas: [999999] }, 'BAD_USER_INPUT', 'onlyForAreas'],
      [
        { name: 'place', kind: 'profile', type: 'country', locationScope: { planets: [] } },
        'BAD_USER_INPUT',
        'locationScope',
      ],
      [{ name: 'noKind', type: 'string' }, 'BAD_USER_INPUT', 'kind'],
    ];
    for (const [input, code, field] of cases) {
      expect(refusal(await s.gql(CREATE, { i: input }, as('admin'))), JSON.stringify(input)).toEqual({ code, field });
    }
    const p = s.t.db.prisma;
    const ids = (
      await p.companyExtraField.findMany({ where: { companyId: s.demo.companies.DEMO }, orderBy: { order: 'asc' } })
    ).map((f) => f.id);
    const REORDER = 'mutation($ids: [String!]!) { reorderExtraFields(ids: $ids) { name order } }';
    const reordered = await s.gql(REORDER, { ids: [...ids].reverse() }, as('admin'));
    expect(reordered.data.reorderExtraFields[0]).toEqual({ name: 'shirtSize', order: 1 });
    expect(refusal(await s.gql(REORDER, { ids: ids.slice(1) }, as('admin')))?.field).toBe('ids');

    const player = await p.user.findFirstOrThrow({ where: { email: 'player1@demo.test' } });
    await p.user.update({
      where: { id: player.id },
      data: {
        extraFields: [
          { name: 'employeeNumber', value: 'E1' },
          { name: 'shirtSize', value: 'M' },
        ],
      },
    });
    const DELETE = 'mutation($id: String!) { deleteExtraField(id: $id) }';
    expect(refusal(await s.gql(DELETE, { id: shirt.data.createExtraField.id }, as('globexAdmin')))?.code).toBe(
      'NOT_FOUND',
    );
    expect((await s.gql(DELETE, { id: shirt.data.createExtraField.id }, as('admin'))).data).toEqual({
      deleteExtraField: true,
    });
    expect((await p.user.findUniqueOrThrow({ where: { id: player.id } })).extraFields).toEqual([
      { name: 'employeeNumber', value: 'E1' },
    ]);
  });
});
