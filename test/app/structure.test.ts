// A company's structure (src/app/structure.ts): its admins set up areas, news and extra fields of the company the
// request acts on; another company's rows are NOT_FOUND to them and stay as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createArea,
  createExtraField,
  createNews,
  deleteArea,
  deleteExtraField,
  deleteNews,
  news,
  reorderExtraFields,
  updateArea,
  updateExtraField,
  updateNews,
} from '../../src/app/structure.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

const area = (id: number) => database.db.prisma.area.findUnique({ where: { id } });

describe('areas', () => {
  it('a player may not; an admin creates areas down to the third level, without twins', async () => {
    await expect(createArea(await testScope(database, 'player'), { name: 'Nope' })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    const admin = await testScope(database, 'admin');
    const top = await createArea(admin, { name: 'Chile' });
    expect(await area(top.id)).toMatchObject({ companyId: database.demo.companies.DEMO, level: 1, parentAreaId: null });
    await expect(createArea(admin, { name: 'Chile' })).rejects.toMatchObject({
      extensions: { code: 'CONFLICT', argumentName: 'name' },
    });
    await expect(createArea(admin, { name: 'Deeper', parentAreaId: database.demo.areas.Sales })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'parentAreaId' },
    });
    await expect(createArea(admin, { name: ' ' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'name' },
    });
  });

  it('another company’s area is out of reach: as parent, to rename or to delete', async () => {
    const admin = await testScope(database, 'admin');
    const hq = database.demo.areas.Headquarters;
    const before = await area(hq);
    await expect(createArea(admin, { name: 'Inside', parentAreaId: hq })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'parentAreaId' },
    });
    await expect(updateArea(admin, hq, { name: 'Renamed' })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    await expect(deleteArea(admin, hq)).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect(await area(hq)).toEqual(before);
  });

  it('an area with people is deleted only by moving them to another of its level, with its parents', async () => {
    const admin = await testScope(database, 'admin');
    const { Sales, Finance, Brasil, 'São Paulo': saoPaulo } = database.demo.areas;
    const placed = await database.db.prisma.user.findMany({ where: { areaLevel3Id: Sales }, select: { id: true } });
    expect(placed.length).toBeGreaterThan(0);
    await expect(deleteArea(admin, Sales)).rejects.toMatchObject({ extensions: { code: 'CONFLICT' } });
    await expect(deleteArea(admin, Sales, Brasil)).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'moveUsersToAreaId' },
    });
    expect(await area(Sales)).not.toBeNull();
    await expect(deleteArea(admin, Sales, Finance)).resolves.toBe(true);
    expect(await area(Sales)).toBeNull();
    const moved = await database.db.prisma.user.findMany({ where: { id: { in: placed.map((u) => u.id) } } });
    for (const u of moved)
      expect(u).toMatchObject({ areaLevel1Id: Brasil, areaLevel2Id: saoPaulo, areaLevel3Id: Finance });
    await expect(deleteArea(admin, Brasil)).rejects.toMatchObject({ extensions: { code: 'CONFLICT' } });
  });
});

describe('news', () => {
  it('a player reads what is published; an admin also what is scheduled, and writes it', async () => {
    const now = new Date(Date.UTC(2026, 8, 1));
    const admin = await testScope(database, 'admin', { now });
    const later = await createNews(admin, {
      title: 'Coming soon',
      body: 'Tomorrow.',
      publishedAt: new Date(Date.UTC(2026, 8, 2)),
    });
    const shown = await news(await testScope(database, 'player', { now }), { take: 100 });
    expect(shown.map((n) => n.id)).not.toContain(later.id);
    expect(shown.every((n) => n.companyId === database.demo.companies.DEMO)).toBe(true);
    expect((await news(admin, { take: 100 })).map((n) => n.id)).toContain(later.id);
    await expect(createNews(await testScope(database, 'player'), { title: 'Mine', body: 'x' })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    await expect(createNews(admin, { title: '', body: 'x' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'title' },
    });
    await expect(createNews(admin, { title: 'Img', body: 'x', imageUrl: 'ftp://x' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'imageUrl' },
    });
  });

  it('another company’s news is NOT_FOUND to change or delete, and stays', async () => {
    const globexNews = await database.db.prisma.news.findFirstOrThrow({
      where: { companyId: database.demo.companies.GLOBEX },
    });
    const admin = await testScope(database, 'admin');
    await expect(updateNews(admin, globexNews.id, { title: 'Taken over' })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    await expect(deleteNews(admin, globexNews.id)).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect(await database.db.prisma.news.findUnique({ where: { id: globexNews.id } })).toEqual(globexNews);
    const own = await createNews(admin, { title: 'Short', body: 'Gone soon.' });
    await updateNews(admin, own.id, { title: 'Shorter' });
    expect((await database.db.prisma.news.findUniqueOrThrow({ where: { id: own.id } })).title).toBe('Shorter');
    await deleteNews(admin, own.id);
    expect(await database.db.prisma.news.findUnique({ where: { id: own.id } })).toBeNull();
  });
});

describe('extra fields', () => {
  it('creates a field at the end, refusing a missing type, a select without options and a taken name', async () => {
    const admin = await testScope(database, 'globexAdmin');
    await expect(createExtraField(admin, { name: 'badge', kind: 'profile' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'type' },
    });
    await expect(
      createExtraField(admin, { name: 'shirt', kind: 'profile', type: 'select', settings: {} }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'settings' } });
    const first = await createExtraField(admin, { name: 'badge', kind: 'profile', type: 'string' });
    const second = await createExtraField(admin, { name: 'desk', kind: 'profile', type: 'number' });
    expect(second.order).toBe(first.order + 1);
    await expect(createExtraField(admin, { name: 'badge', kind: 'profile', type: 'string' })).rejects.toMatchObject({
      extensions: { code: 'CONFLICT', argumentName: 'name' },
    });
    await expect(updateExtraField(admin, first.id, { name: 'renamed' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'name' },
    });
    await expect(reorderExtraFields(admin, [second.id])).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'ids' },
    });
    const reordered = await reorderExtraFields(admin, [second.id, first.id]);
    expect(reordered.map((f) => f.id)).toEqual([second.id, first.id]);
  });

  it('another company’s field is NOT_FOUND; deleting one removes every person’s value for it', async () => {
    const field = 'demo-employee-number';
    const globexAdmin = await testScope(database, 'globexAdmin');
    await expect(updateExtraField(globexAdmin, field, { isRequired: false })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    await expect(deleteExtraField(globexAdmin, field)).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect(await database.db.prisma.companyExtraField.findUnique({ where: { id: field } })).not.toBeNull();

    const player = () =>
      database.db.prisma.user.findUniqueOrThrow({ where: { id: database.demo.users['player2@demo.test'] } });
    expect(JSON.stringify((await player()).extraFields)).toContain('employeeNumber');
    await deleteExtraField(await testScope(database, 'admin'), field);
    expect(await database.db.prisma.companyExtraField.findUnique({ where: { id: field } })).toBeNull();
    expect(JSON.stringify((await player()).extraFields)).not.toContain('employeeNumber');
  });
});
