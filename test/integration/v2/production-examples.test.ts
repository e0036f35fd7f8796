// Every request example the production reference gives for the meetings, participants,
// recordings and webhooks operations (its request-body examples, the examples of its fields,
// and the requests its guides show) answers 2xx here. The bodies are written out as the
// reference shows them; only an id that must name something of this emulator is replaced.
import { describe, expect, it } from 'vitest';
import { BASIC, makeTestApp } from '../../helpers/test-app.js';
import { addParticipant, createMeeting } from '../../helpers/builders.js';

describe('production request examples', () => {
  it('POST /v2/recordings with the reference\'s "Example 1" (port 0, every config, storage secrets)', async () => {
    const t = makeTestApp();
    const meeting = await createMeeting(t.api);
    const res = await t.api
      .post('/v2/recordings')
      .set('Authorization', BASIC)
      .send({
        meeting_id: meeting.id, // the example's 97440c6a-140b-40a9-9499-b23fd7a3868a names no meeting here
        max_seconds: 60,
        storage_config: {
          type: 'aws',
          secret: 'string',
          bucket: 'string',
          region: 'us-east-1',
          path: 'string',
          auth_method: 'KEY',
          username: 'string',
          password: 'string',
          host: 'string',
          port: 0,
          private_key: 'string',
        },
        video_config: {
          codec: 'H264',
          width: 1280,
          height: 720,
          watermark: { url: 'http://example.com', size: { width: 1, height: 1 }, position: 'left top' },
          export_file: true,
        },
        audio_config: { codec: 'AAC', channel: 'stereo', export_file: true },
        file_name_prefix: 'string',
        dyte_bucket_config: { enabled: true },
        interactive_config: { type: 'ID3' },
        allow_multiple_recordings: false,
      })
      .expect(200);
    expect(res.body.data).toMatchObject({
      status: 'INVOKED',
      output_file_name: expect.stringMatching(/^string_/),
      storage_config: { type: 'aws', bucket: 'string', region: 'us-east-1', path: 'string', auth_method: 'KEY', username: 'string', host: 'string', port: 0 },
    });
  });

  it('POST /v2/recordings as the start-recording guide shows it (meeting_id alone)', async () => {
    const t = makeTestApp();
    const meeting = await createMeeting(t.api);
    await t.api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: meeting.id }).expect(200);
  });

  it("POST /v2/recordings with the bucket guide's dyte_bucket_config { enabled: false }", async () => {
    const t = makeTestApp();
    const meeting = await createMeeting(t.api);
    await t.api
      .post('/v2/recordings')
      .set('Authorization', BASIC)
      .send({ meeting_id: meeting.id, dyte_bucket_config: { enabled: false } })
      .expect(200);
  });

  it('POST /v2/meetings as the start-recording guide shows it', async () => {
    const t = makeTestApp();
    const res = await t.api
      .post('/v2/meetings')
      .set('Authorization', BASIC)
      .send({ title: 'Lorem Ipsum', preferred_region: 'ap-south-1', record_on_start: true })
      .expect(201);
    expect(res.body.data).toMatchObject({ title: 'Lorem Ipsum', preferred_region: 'ap-south-1', record_on_start: true });
  });

  it('POST and PATCH /v2/meetings with the examples of the AI config fields and the status example', async () => {
    const t = makeTestApp();
    const ai_config = {
      transcription: { keywords: ['Dyte'], language: 'en-US', profanity_filter: false },
      summarization: { word_limit: 500, text_format: 'plain_text', summary_type: 'team_meeting' },
    };
    const created = await t.api.post('/v2/meetings').set('Authorization', BASIC).send({ ai_config }).expect(201);
    expect(created.body.data.ai_config).toEqual(ai_config);
    const patched = await t.api.patch(`/v2/meetings/${created.body.data.id}`).set('Authorization', BASIC).send({ status: 'INACTIVE', ai_config }).expect(200);
    expect(patched.body.data).toMatchObject({ status: 'INACTIVE', ai_config });
  });

  it('POST and PATCH a participant with the examples of its fields', async () => {
    const t = makeTestApp();
    const meeting = await createMeeting(t.api);
    const p = await addParticipant(t.api, meeting.id, { name: 'Mary Sue', picture: 'https://i.imgur.com/test.jpg', preset_name: 'group_call_host' });
    const res = await t.api.patch(`/v2/meetings/${meeting.id}/participants/${p.id}`).set('Authorization', BASIC).send({ name: 'Jane Doe' }).expect(200);
    expect(res.body.data).toMatchObject({ name: 'Jane Doe', picture: 'https://i.imgur.com/test.jpg', preset_name: 'group_call_host' });
  });

  it('POST and PATCH /v2/webhooks with the examples of their fields', async () => {
    const t = makeTestApp();
    const created = await t.api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({
        name: 'All events webhook',
        url: 'https://webhook.site/b23a5bbd-c7b0-4ced-a9e2-78ae7889897e',
        events: [
          'meeting.started',
          'meeting.ended',
          'meeting.participantJoined',
          'meeting.participantLeft',
          'meeting.chatSynced',
          'recording.statusUpdate',
          'livestreaming.statusUpdate',
          'meeting.transcript',
          'meeting.summary',
        ],
      })
      .expect(201);
    await t.api
      .patch(`/v2/webhooks/${created.body.data.id}`)
      .set('Authorization', BASIC)
      .send({ url: 'https://webhook.site/b23a5bbd-c7b0-4ced-a9e2-78ae7889897e', enabled: true })
      .expect(200);
  });
});
