// A company's structure: areas, news, extra-field definitions. The work is src/app/structure.ts's; these map
// arguments to it.
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as structure from '../../app/structure.ts';
import type { Context } from '../context.ts';
import { Area } from '../types/area.ts';
import { CompanyExtraField } from '../types/extra-field.ts';
import { CreateAreaInput, ExtraFieldInput, News, NewsInput, UpdateAreaInput } from '../types/structure.ts';

const ADMINS = 'Admins of the current company, its reseller and managers.';

@Resolver()
export class StructureResolver {
  @Mutation(() => Area, { description: `A new area, at level 1 or under a parent (three levels at most). ${ADMINS}` })
  createArea(
    @Arg('input', () => CreateAreaInput, { description: 'The area.' }) input: CreateAreaInput,
    @Ctx() ctx: Context,
  ) {
    return structure.createArea(ctx.scope, input);
  }

  @Mutation(() => Area, { description: `Renames an area. ${ADMINS}` })
  updateArea(
    @Arg('areaId', () => Int, { description: 'An area of the current company (another: NOT_FOUND).' }) areaId: number,
    @Arg('input', () => UpdateAreaInput, { description: 'The new name.' }) input: UpdateAreaInput,
    @Ctx() ctx: Context,
  ) {
    return structure.updateArea(ctx.scope, areaId, input);
  }

  @Mutation(() => Boolean, {
    description:
      'Deletes an area without sub-areas. Refused (CONFLICT) while people or open invitations are placed in it, ' +
      `unless moveUsersToAreaId names another area of the same level: they move there first. ${ADMINS}`,
  })
  deleteArea(
    @Arg('areaId', () => Int, { description: 'An area of the current company (another: NOT_FOUND).' }) areaId: number,
    @Ctx() ctx: Context,
    @Arg('moveUsersToAreaId', () => Int, {
      description: 'Another area of the same level, where its people and invitations move first.',
      nullable: true,
    })
    moveUsersToAreaId?: number | null,
  ) {
    return structure.deleteArea(ctx.scope, areaId, moveUsersToAreaId);
  }

  @Query(() => [News], {
    description:
      "The current company's published news, newest first (none where it sets disableNews); its admins, reseller " +
      'and managers also see what is scheduled.',
  })
  news(
    @Ctx() ctx: Context,
    @Arg('skip', () => Int, { description: 'Items to pass over, >= 0 (default 0).', nullable: true }) skip?: number,
    @Arg('take', () => Int, { description: 'Items to return, 1 to 100 (default 20).', nullable: true }) take?: number,
  ) {
    return structure.news(ctx.scope, { skip, take });
  }

  @Mutation(() => News, { description: `Publishes news (now, or at publishedAt). ${ADMINS}` })
  createNews(
    @Arg('input', () => NewsInput, { description: 'The news; title and body are required.' }) input: NewsInput,
    @Ctx() ctx: Context,
  ) {
    return structure.createNews(ctx.scope, input);
  }

  @Mutation(() => News, { description: `Edits news. ${ADMINS}` })
  updateNews(
    @Arg('newsId', () => Int, { description: 'News of the current company (another: NOT_FOUND).' }) newsId: number,
    @Arg('input', () => NewsInput, { description: 'What to change.' }) input: NewsInput,
    @Ctx() ctx: Context,
  ) {
    return structure.updateNews(ctx.scope, newsId, input);
  }

  @Mutation(() => Boolean, { description: `Deletes news. ${ADMINS}` })
  deleteNews(
    @Arg('newsId', () => Int, { description: 'News of the current company (another: NOT_FOUND).' }) newsId: number,
    @Ctx() ctx: Context,
  ) {
    return structure.deleteNews(ctx.scope, newsId);
  }

  @Mutation(() => CompanyExtraField, { description: `Defines an extra field, last in order. ${ADMINS}` })
  createExtraField(
    @Arg('input', () => ExtraFieldInput, { description: 'The field; name, kind and type are required.' })
    input: ExtraFieldInput,
    @Ctx() ctx: Context,
  ) {
    return structure.createExtraField(ctx.scope, { ...input });
  }

  @Mutation(() => CompanyExtraField, { description: `Changes an extra field's definition (not its name). ${ADMINS}` })
  updateExtraField(
    @Arg('id', () => String, { description: "One of the company's extra fields." }) id: string,
    @Arg('input', () => ExtraFieldInput, { description: 'What to change.' }) input: ExtraFieldInput,
    @Ctx() ctx: Context,
  ) {
    return structure.updateExtraField(ctx.scope, id, { ...input });
  }

  @Mutation(() => [CompanyExtraField], {
    description: `Puts every extra field of the company in the order given. ${ADMINS}`,
  })
  reorderExtraFields(
    @Arg('ids', () => [String], { description: "Every extra field's id of the company, in the new order." })
    ids: string[],
    @Ctx() ctx: Context,
  ) {
    return structure.reorderExtraFields(ctx.scope, ids);
  }

  @Mutation(() => Boolean, { description: `Deletes an extra field and every person's value for it. ${ADMINS}` })
  deleteExtraField(
    @Arg('id', () => String, { description: "One of the company's extra fields." }) id: string,
    @Ctx() ctx: Context,
  ) {
    return structure.deleteExtraField(ctx.scope, id);
  }
}
