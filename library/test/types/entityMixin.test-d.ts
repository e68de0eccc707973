import { describe, expectTypeOf, it } from 'vitest';
import { createResource, type Denormalize, schema } from '../../src/index.js';

class ArticleData {
  id = '';
  title = '';
  views = 0;
}
class Article extends schema.Entity(ArticleData, { pk: 'id', key: 'Article' }) {}

describe('schema.Entity(Base, options)', () => {
  it('makes an entity class whose instances have the base fields and pk()', () => {
    expectTypeOf<Denormalize<typeof Article>>().toEqualTypeOf<Article>();
    const article = new (class extends Article {})();
    expectTypeOf(article.title).toEqualTypeOf<string>();
    expectTypeOf(article.views).toEqualTypeOf<number>();
    expectTypeOf(article.pk).returns.toEqualTypeOf<string | number | undefined>();
    expectTypeOf(Article.key).toEqualTypeOf<string>();
  });

  it('a resource over it reads instances of it', () => {
    const ArticleResource = createResource({ path: '/articles/:id', schema: Article });
    expectTypeOf(ArticleResource.get).returns.resolves.toEqualTypeOf<Article>();
    expectTypeOf(ArticleResource.getList).returns.resolves.toEqualTypeOf<Article[]>();
  });

  it('options are checked against the base fields', () => {
    schema.Entity(ArticleData, { pk: (article) => article.id });
    schema.Entity(ArticleData, { schema: { title: String } });
    // @ts-expect-error `slug` is not a field of ArticleData
    schema.Entity(ArticleData, { pk: 'slug' });
    // @ts-expect-error `author` is not a field of ArticleData
    schema.Entity(ArticleData, { schema: { author: Article } });
    // @ts-expect-error `key` is a string
    schema.Entity(ArticleData, { key: 5 });
  });
});
