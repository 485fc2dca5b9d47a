import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf, requestContext, signedIn } from '../http/auth.ts';
import { requestLocale } from '../http/locale.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// Feedback (spec section 7 "Feedback"): a trade's ratings under /rest/v1/feedback/{tradeHash},
// the feature-request form, and a person's feedback list under /rest/v1/users/{username}/feedbacks.

const IdParam = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9A-Za-z]{6,32}$/, 'must be a trade id')) });
export const UsernameParam = v.object({
  username: v.pipe(v.string(), v.regex(/^[A-Za-z0-9]{1,40}$/, 'must be a username')),
});
// Lengths are the service's rule (with a translated message); here only the type and a hard cap.
const text = (max: number) => v.pipe(v.string('must be text'), v.maxLength(max, 'is too long'));
const GiveBody = v.object({
  rating: v.picklist(['positive', 'negative'], 'must be positive or negative'),
  message: text(2000),
});
const ReplyBody = v.object({ reply: text(2000) });
const FeatureRequestBody = v.object({ text: text(10_000) });
export const pageNumber = () =>
  v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,4}$/, 'must be a page number from 1'), v.transform(Number)), '1');
const FeedbacksQuery = v.object({
  f_page: pageNumber(),
  offer_type: v.optional(v.picklist(['buy', 'sell', 'all'], 'must be buy, sell or all'), 'all'),
  feedback: v.optional(v.picklist(['all', 'positive', 'negative'], 'must be all, positive or negative'), 'all'),
});

export function feedbackRoutes(services: Services) {
  const { feedback } = services;
  return new Hono<AppEnv>()
    .use('/feedback/*', signedIn)
    .post('/feedback/feature-request', validate('json', FeatureRequestBody), async (c) =>
      c.json(
        {
          data: await feedback.featureRequest(personContextOf(c), {
            text: c.req.valid('json').text,
            locale: requestLocale(c),
          }),
        },
        201,
      ),
    )
    .get('/feedback/:id', validate('param', IdParam), async (c) =>
      c.json({ data: await feedback.ofTrade(personContextOf(c), { hash: c.req.valid('param').id }) }),
    )
    .post('/feedback/:id/give', validate('param', IdParam), validate('json', GiveBody), async (c) => {
      const body = c.req.valid('json');
      return c.json({
        data: await feedback.give(personContextOf(c), {
          hash: c.req.valid('param').id,
          rating: body.rating,
          message: body.message,
        }),
      });
    })
    .post('/feedback/:id/reply', validate('param', IdParam), validate('json', ReplyBody), async (c) =>
      c.json({
        data: await feedback.reply(personContextOf(c), {
          hash: c.req.valid('param').id,
          reply: c.req.valid('json').reply,
        }),
      }),
    )
    .get(
      '/users/:username/feedbacks',
      validate('param', UsernameParam),
      validate('query', FeedbacksQuery),
      async (c) => {
        const q = c.req.valid('query');
        // The spec reads total, positive, negative, data and nextPageUrl from the body itself.
        return c.json(
          await feedback.ofUser(requestContext(c), {
            username: c.req.valid('param').username,
            page: q.f_page,
            offerType: q.offer_type,
            rating: q.feedback,
          }),
        );
      },
    );
}
