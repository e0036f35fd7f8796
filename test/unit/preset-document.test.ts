// The preset document: defaults for what is left out, and the deep merge of PATCH. The expected
// values are production's documented defaults and the emulator's documented ones
// (docs/api-v2.md, "Presets"), written out.
import { describe, expect, it } from 'vitest';
import { PRESET_DEFAULTS, mergeDocument, patchDocument, presetDocument, presetDocumentSchemas } from '../../src/domain/presets/preset-document.js';

describe('presetDocument: defaults', () => {
  it('fills an empty document with production’s defaults and an ordinary participant’s permissions', () => {
    const doc = presetDocument();
    expect(doc.config).toEqual({
      view_type: 'GROUP_CALL',
      max_video_streams: { mobile: 4, desktop: 9 },
      max_screenshare_count: 1,
      media: {
        audio: { enable_stereo: false, enable_high_bitrate: false },
        video: { quality: 'hd', frame_rate: 30 },
        screenshare: { quality: 'hd', frame_rate: 5 },
      },
    });
    expect(doc.permissions).toMatchObject({
      is_recorder: false,
      recorder_type: 'NONE',
      can_record: false,
      can_livestream: false,
      kick_participant: false,
      accept_waiting_requests: false,
      waiting_room_type: 'SKIP',
      media: { video: { can_produce: 'ALLOWED' }, audio: { can_produce: 'ALLOWED' }, screenshare: { can_produce: 'ALLOWED' } },
    });
    expect(doc.ui).toEqual({
      design_tokens: {
        border_radius: 'rounded',
        border_width: 'thin',
        spacing_base: 4,
        theme: 'dark',
        colors: {
          brand: { '300': '#844d1c', '400': '#9d5b22', '500': '#b56927', '600': '#d37c30', '700': '#d9904f' },
          background: { '600': '#222222', '700': '#1f1f1f', '800': '#1b1b1b', '900': '#181818', '1000': '#141414' },
          danger: '#FF2D2D',
          text: '#EEEEEE',
          text_on_brand: '#EEEEEE',
          success: '#62A504',
          video_bg: '#191919',
          warning: '#FFCD07',
        },
        logo: '',
      },
      config_diff: {},
    });
  });

  it('a ui given without design tokens still has them', () => {
    const doc = presetDocument({ ui: { config_diff: { a: 1 } } });
    expect(doc.ui.design_tokens.theme).toBe('dark');
    expect(doc.ui.config_diff).toEqual({ a: 1 });
  });

  it('a partial permissions block is laid over the defaults; everything else stays default', () => {
    const doc = presetDocument({ permissions: { can_record: true, chat: { private: { can_send: false } } } });
    expect(doc.permissions.can_record).toBe(true);
    expect(doc.permissions.chat).toEqual({
      public: { can_send: true, text: true, files: true },
      private: { can_send: false, can_receive: true, text: true, files: true },
    });
    expect(doc.config).toEqual(presetDocument().config);
  });

  it('every document is a fresh copy: changing one changes neither the defaults nor the next one', () => {
    const a = presetDocument();
    a.permissions.media.video.can_produce = 'NOT_ALLOWED';
    a.ui.design_tokens.colors.brand['500'] = '#000000';
    expect(presetDocument().permissions.media.video.can_produce).toBe('ALLOWED');
    expect(presetDocument().ui.design_tokens.colors.brand['500']).toBe('#b56927');
    expect(Object.isFrozen(PRESET_DEFAULTS.permissions.media.video)).toBe(true);
  });

  it('the whole default document is what the answer schema requires', () => {
    const stored = presetDocumentSchemas('stored');
    expect(stored.config.safeParse(PRESET_DEFAULTS.config).success).toBe(true);
    expect(stored.permissions.safeParse(PRESET_DEFAULTS.permissions).success).toBe(true);
    expect(stored.ui.safeParse(PRESET_DEFAULTS.ui).success).toBe(true);
  });
});

describe('patchDocument: PATCH', () => {
  it('changes only the given leaves, at any depth', () => {
    const base = presetDocument({ permissions: { can_record: true } });
    const next = patchDocument(base, { config: { media: { video: { frame_rate: 15 } } }, permissions: { polls: { can_create: true } } });
    const expected = structuredClone(base);
    expected.config.media.video.frame_rate = 15;
    expected.permissions.polls.can_create = true;
    expect(next).toEqual(expected);
  });

  it('leaves its inputs as they were', () => {
    const base = presetDocument();
    const before = structuredClone(base);
    const patch = { permissions: { plugins: { can_start: true } } };
    const next = patchDocument(base, patch);
    expect(base).toEqual(before);
    expect(patch).toEqual({ permissions: { plugins: { can_start: true } } });
    next.permissions.plugins.can_close = true;
    expect(base.permissions.plugins.can_close).toBe(false);
  });

  it('an empty patch is the same document', () => {
    const base = presetDocument({ config: { view_type: 'AUDIO_ROOM' } });
    expect(patchDocument(base, {})).toEqual(base);
  });

  it('a plugin config id gives way to an access object laid over the default access', () => {
    const withId = patchDocument(presetDocument(), { permissions: { plugins: { config: '3f1e8c2a-6a55-4b8f-9d3e-2c1f0a9b8e7d' } } });
    expect(withId.permissions.plugins.config).toBe('3f1e8c2a-6a55-4b8f-9d3e-2c1f0a9b8e7d');
    const back = patchDocument(withId, { permissions: { plugins: { config: { access_control: 'VIEW_ONLY' } } } });
    expect(back.permissions.plugins.config).toEqual({ access_control: 'VIEW_ONLY', handles_view_only: false });
  });
});

describe('mergeDocument', () => {
  it.each([
    ['an absent patch keeps the base', { a: 1 }, undefined, { a: 1 }],
    ['a scalar replaces', { a: 1 }, 2, 2],
    ['a nested leaf replaces only itself', { a: { b: 1, c: 2 } }, { a: { b: 3 } }, { a: { b: 3, c: 2 } }],
    ['an undefined field is not given', { a: 1, b: 2 }, { a: undefined, b: 3 }, { a: 1, b: 3 }],
    ['a new key is added', { a: 1 }, { b: 2 }, { a: 1, b: 2 }],
  ])('%s', (_name, base, patch, expected) => {
    expect(mergeDocument(base, patch, undefined)).toEqual(expected);
  });
});
