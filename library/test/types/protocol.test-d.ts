import { describe, expectTypeOf, it } from 'vitest';
import {
  type Check,
  type Infer,
  literal,
  object,
  optional,
  string,
} from '../../src/devtools/protocol/check.js';
import type {
  ActionCause,
  ActionSummary,
  Effect,
  EffectType,
  FetchReason,
  StoreEvent,
  TraceFrame,
} from '../../src/devtools/protocol/effects.js';
import type {
  actionCause,
  actionSummary,
  EFFECT_CHECKS,
  effect,
  fetchReason,
  storeEvent,
  traceFrame,
} from '../../src/devtools/protocol/eventChecks.js';
import type {
  ExtensionCommand,
  HelloMessage,
  PageMessage,
  PageMessageBody,
  RecordedMutation,
  ReplayCommand,
  SnapshotMessage,
} from '../../src/devtools/protocol/messages.js';
import type { Session, SessionMutation } from '../../src/devtools/protocol/session.js';
import { isExtensionCommand, isPageMessage } from '../../src/devtools/protocol/validate.js';

describe('a description is the type of what its check accepts', () => {
  it('required and optional fields, literals, lists', () => {
    const todo = object({ id: string(), kind: literal('a', 'b'), tags: optional(string()) });
    expectTypeOf<Infer<typeof todo>>().toEqualTypeOf<{
      id: string;
      kind: 'a' | 'b';
      tags?: string | undefined;
    }>();
    expectTypeOf(todo.accepts).guards.toEqualTypeOf<Infer<typeof todo>>();
  });

  it('messages: each kind with its envelope, the body without it', () => {
    expectTypeOf<HelloMessage>().toEqualTypeOf<{
      tag: 'restlens';
      v: 4;
      source: 'page';
      kind: 'hello';
      storeId: string;
      storeName: string;
      libraryVersion: string;
      seq: number;
      answering?: boolean | undefined;
    }>();
    expectTypeOf<SnapshotMessage['count']>().toEqualTypeOf<number>();
    expectTypeOf<PageMessage['kind']>().toEqualTypeOf<
      | 'hello'
      | 'events'
      | 'snapshot'
      | 'members'
      | 'rows'
      | 'results'
      | 'readers'
      | 'search'
      | 'command-error'
    >();
    expectTypeOf<Extract<PageMessageBody, { kind: 'hello' }>>().not.toHaveProperty('tag');
    expectTypeOf<ExtensionCommand['kind']>().toEqualTypeOf<
      | 'connect'
      | 'disconnect'
      | 'snapshot'
      | 'expireAll'
      | 'reset'
      | 'invalidate'
      | 'replay'
      | 'rows'
      | 'results'
      | 'refetch'
      | 'expire'
      | 'force-loading'
      | 'force-error'
      | 'edit'
      | 'readers'
      | 'search'
    >();
    expectTypeOf<ReplayCommand['mutations']>().toEqualTypeOf<RecordedMutation[]>();
    expectTypeOf(isPageMessage).guards.toEqualTypeOf<PageMessage>();
    expectTypeOf(isExtensionCommand).guards.branded.toEqualTypeOf<
      { tag: 'restlens'; v: 4; source: 'extension' } & ExtensionCommand
    >();
  });

  it('the session file', () => {
    expectTypeOf<Session['format']>().toEqualTypeOf<'restlens-session'>();
    expectTypeOf<Session['mutations']>().toEqualTypeOf<SessionMutation[]>();
    // Fields replay does not read are taken as they come; the Recorder checks them itself.
    expectTypeOf<SessionMutation['method']>().toEqualTypeOf<unknown>();
    expectTypeOf<
      Omit<SessionMutation, 'method' | 'url' | 'body'>
    >().toEqualTypeOf<RecordedMutation>();
  });
});

describe("the events' descriptions are the effects' types, declared from the change-set", () => {
  it('each effect type', () => {
    type Described<T extends EffectType> = Infer<(typeof EFFECT_CHECKS)[T]>;
    type Declared<T extends EffectType> = Extract<Effect, { type: T }>;
    expectTypeOf<Described<'entities-added'>>().branded.toEqualTypeOf<Declared<'entities-added'>>();
    expectTypeOf<Described<'entities-updated'>>().branded.toEqualTypeOf<
      Declared<'entities-updated'>
    >();
    expectTypeOf<Described<'entity-invalidated'>>().branded.toEqualTypeOf<
      Declared<'entity-invalidated'>
    >();
    expectTypeOf<Described<'collection-changed'>>().branded.toEqualTypeOf<
      Declared<'collection-changed'>
    >();
    expectTypeOf<Described<'result-stored'>>().branded.toEqualTypeOf<Declared<'result-stored'>>();
    expectTypeOf<Described<'result-error'>>().branded.toEqualTypeOf<Declared<'result-error'>>();
    expectTypeOf<Described<'result-invalidated'>>().branded.toEqualTypeOf<
      Declared<'result-invalidated'>
    >();
    expectTypeOf<Described<'result-expired'>>().branded.toEqualTypeOf<Declared<'result-expired'>>();
    expectTypeOf<Described<'result-suspends'>>().branded.toEqualTypeOf<
      Declared<'result-suspends'>
    >();
    expectTypeOf<Described<'result-lost-member'>>().branded.toEqualTypeOf<
      Declared<'result-lost-member'>
    >();
    expectTypeOf<Described<'store-reset'>>().branded.toEqualTypeOf<Declared<'store-reset'>>();
    expectTypeOf<Described<'replay-result'>>().branded.toEqualTypeOf<Declared<'replay-result'>>();
    expectTypeOf<Infer<typeof effect>>().branded.toEqualTypeOf<Effect>();
  });

  it('the action, its cause and the event; an action type is any text (a newer page’s)', () => {
    expectTypeOf<Infer<typeof fetchReason>>().branded.toEqualTypeOf<FetchReason>();
    expectTypeOf<Infer<typeof traceFrame>>().branded.toEqualTypeOf<TraceFrame>();
    expectTypeOf<Infer<typeof actionCause>>().branded.toEqualTypeOf<ActionCause>();
    type WireAction = Omit<ActionSummary, 'type'> & { type: string };
    expectTypeOf<Infer<typeof actionSummary>>().branded.toEqualTypeOf<WireAction>();
    expectTypeOf<Infer<typeof storeEvent>>().branded.toEqualTypeOf<
      Omit<StoreEvent, 'action'> & { action: WireAction }
    >();
  });

  it('a check is no wider than its type: a field of another type does not fit', () => {
    // @ts-expect-error a check of `pks: number[]` is no check of EntitiesAdded
    const _wrong: Check<Extract<Effect, { type: 'entities-added' }>> = object({
      type: literal('entities-added'),
      entity: string(),
      pks: object({}),
    });
  });
});
