// The waiting room's edges through the control API, in process: a participant deleted while
// they wait drops out of the list and can no longer be admitted, an INACTIVE meeting admits
// nobody, and an organization's reset leaves the others' waiting rooms alone. The waiting room with pages
// is test/integration/realtime/waiting-room.test.ts.
import { describe, expect, it } from 'vitest';
import { addParticipant, createPreset, PRESETS } from '../../helpers/builders.js';
import { basicAuth, BASIC, makeTestApp, type TestApp } from '../../helpers/test-app.js';

const base = (meetingId: string) => `/_emulator/meetings/${meetingId}`;

/** A meeting with its waiting room, where the participant preset waits until admitted. */
async function clinic(t: TestApp, auth = BASIC, presetId: string = PRESETS.participant.id): Promise<string> {
  await t.api
    .patch(`/v2/presets/${presetId}`)
    .set('Authorization', auth)
    .send({ permissions: { waiting_room_type: 'SKIP_ON_ACCEPT' } })
    .expect(200);
  const res = await t.api.post('/v2/meetings').set('Authorization', auth).send({ title: 'Clinic', waiting_room: true }).expect(201);
  return res.body.data.id;
}

async function waits(t: TestApp, meetingId: string, name: string): Promise<string> {
  const p = await addParticipant(t.api, meetingId, { name, custom_participant_id: name, preset_name: PRESETS.participant.name });
  await t.api.post(`${base(meetingId)}/participants/${p.id}/join`).expect(202);
  return p.id;
}

const waiting = async (t: TestApp, meetingId: string): Promise<string[]> =>
  (await t.api.get(`${base(meetingId)}/waiting-room`).expect(200)).body.waiting.map((w: { custom_participant_id: string }) => w.custom_participant_id);

describe('the waiting room through the control API', () => {
  it('a participant deleted while waiting leaves the list, and admitting them is refused (nobody is admitted)', async () => {
    const t = makeTestApp();
    const m = await clinic(t);
    const gus = await waits(t, m, 'gus');
    const lee = await waits(t, m, 'lee');
    await t.api.delete(`/v2/meetings/${m}/participants/${gus}`).set('Authorization', BASIC).expect(200);
    expect(await waiting(t, m)).toEqual(['lee']);
    await t.api
      .post(`${base(m)}/waiting-room/admit`)
      .send({ participant_ids: [lee, gus] })
      .expect(409, { error: { code: 'CONFLICT', message: `Participant ${gus} is not waiting in meeting ${m}` } });
    expect(await waiting(t, m)).toEqual(['lee']);
  });

  it('an INACTIVE meeting admits nobody, and a rejection still goes through', async () => {
    const t = makeTestApp();
    const m = await clinic(t);
    const gus = await waits(t, m, 'gus');
    await waits(t, m, 'lee');
    await t.api.patch(`/v2/meetings/${m}`).set('Authorization', BASIC).send({ status: 'INACTIVE' }).expect(200);
    const conflict = { error: { code: 'CONFLICT', message: `Meeting ${m} is INACTIVE; participants cannot join` } };
    await t.api
      .post(`${base(m)}/waiting-room/admit`)
      .send({ participant_ids: [gus] })
      .expect(409, conflict);
    await t.api
      .post(`${base(m)}/waiting-room/reject`)
      .send({ participant_ids: [gus] })
      .expect(200);
    expect(await waiting(t, m)).toEqual(['lee']);
  });

  it("an organization's reset leaves the other organizations' waiting rooms alone", async () => {
    const t = makeTestApp();
    const other = (await t.api.post('/_emulator/orgs').send({ name: 'Other' }).expect(201)).body as { id: string; api_key: string };
    const otherAuth = basicAuth(other.id, other.api_key);
    const mine = await clinic(t);
    await waits(t, mine, 'gus');
    const patient = await createPreset(t.api, { name: 'patient' }, otherAuth);
    const theirs = await clinic(t, otherAuth, patient.id);
    const ivy = await t.api
      .post(`/v2/meetings/${theirs}/participants`)
      .set('Authorization', otherAuth)
      .send({ name: 'ivy', custom_participant_id: 'ivy', preset_name: 'patient' })
      .expect(201);
    await t.api.post(`${base(theirs)}/participants/${ivy.body.data.id}/join`).expect(202);

    await t.api.post(`/_emulator/orgs/${other.id}/reset`).expect(200);
    expect(await waiting(t, mine)).toEqual(['gus']);
  });
});
