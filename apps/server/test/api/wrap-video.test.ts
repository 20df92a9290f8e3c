/**
 * MP4 video in the non-DICOM upload: an H.264 MP4 wrapped as Video Photographic Image Storage with
 * the MPEG-4 AVC/H.264 transfer syntax of its profile and level, checked by dcmtk (dcmftest, dcmdump)
 * and dicom3tools (dciodvfy); other codecs, damaged files and files that only look like MP4 refused.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dcmdump, dcmftest, dumpValue, hasTool, tempDir } from '../dicom/support.js';
import { storedInstanceBytes } from '../support/blob-files.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { filesUnder, ingestState } from '../support/ingest-state.js';
import { wrapBody, type Upload } from '../support/non-dicom.js';
import {
  audioOnlyMp4,
  h264Mp4,
  h264WithSoundMp4,
  high10Mp4,
  mpeg4Part2Mp4,
  oddLength,
} from '../support/videos.js';
import { cutInsideOpenMdat, editMp4, payloadOf } from '../support/mp4-boxes.js';

const VIDEO_CLASS = '1.2.840.10008.5.1.4.1.1.77.1.4.1';

const FORM = {
  firstName: 'Vera',
  lastName: 'Video',
  patientDOB: '1979-11-02',
  patientMRN: 'MRN-VIDEO-1',
  patientGender: 'F',
  studyDate: '2026-06-01',
  studyTime: '09:30',
  studyDescription: 'Wound video',
};

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe.each(DIALECTS)('MP4 video wrapped into DICOM on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let emergency: string;

  const wrap = async (form: Record<string, string>, files: Upload[]) => {
    const body = wrapBody(form, files);
    const response = await fetch(`${server.url}/api/v3/storage/namespace/${emergency}/wrap?sid=${sid}`, {
      method: 'POST',
      body,
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  const counts = () => ingestState(server);

  const storedFile = async (sopInstanceUid: string, name: string) =>
    tmp.write(`${dialect}-${name}`, await storedInstanceBytes(server, sopInstanceUid));

  beforeAll(async () => {
    server = await startTestServer(dialect);
    sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
  });
  afterAll(() => server?.stop());

  it('wraps an H.264 MP4 as Video Photographic with the transfer syntax of its level', async () => {
    const clip = h264Mp4({ size: '320x240', rate: 25, seconds: 2 });
    const level42 = h264Mp4({ size: '320x240', rate: 30, seconds: 1, level: '4.2', faststart: true });
    const withSound = h264WithSoundMp4();
    const answer = await wrap(FORM, [
      { name: 'wound.mp4', bytes: clip, type: 'video/mp4' },
      // Recognised by its ftyp box, not its name or type.
      { name: 'from-phone.m4v', bytes: level42 },
      { name: 'clip-with-sound', bytes: withSound, type: 'application/octet-stream' },
    ]);
    expect(answer.status).toBe(202);
    expect(answer.body.study_uid).toMatch(/^2\.25\.\d{20,}$/);
    expect(answer.body.instances.map((i: any) => [i.filename, i.kind, i.sop_class_uid])).toEqual([
      ['wound.mp4', 'mp4', VIDEO_CLASS],
      ['from-phone.m4v', 'mp4', VIDEO_CLASS],
      ['clip-with-sound', 'mp4', VIDEO_CLASS],
    ]);

    const study = await server.api.get('study/get', { sid, uuid: answer.body.study_uuid });
    expect(study.body).toMatchObject({
      patient_name: 'Video^Vera',
      patientid: 'MRN-VIDEO-1',
      patient_sex: 'F',
      patient_birth_date: '19791102',
      study_date: '20260601',
      study_time: '093000',
      study_description: 'Wound video',
      series_count: 3,
      modality: 'XC',
    });

    const [first, second, third] = answer.body.instances;
    const file = await storedFile(first.sop_instance_uid, 'wound.dcm');
    expect(dcmftest(file)).toMatch(/^yes: /);
    const dump = dcmdump(file);
    expect(dump.errors).toEqual([]);
    expect(dump.stdout).toMatch(/^\(0002,0010\) UI =MPEG4HighProfile\/Level4\.1 /m);
    expect(dump.stdout).toMatch(/^\(0008,0016\) UI =VideoPhotographicImageStorage /m);
    expect(dumpValue(dump.stdout, '0008,0060')).toBe('XC');
    expect(dumpValue(dump.stdout, '0010,0010')).toBe('Video^Vera');
    expect(dumpValue(dump.stdout, '0010,0020')).toBe('MRN-VIDEO-1');
    expect(dumpValue(dump.stdout, '0010,0030')).toBe('19791102');
    expect(dumpValue(dump.stdout, '0010,0040')).toBe('F');
    expect(dumpValue(dump.stdout, '0020,000d')).toBe(answer.body.study_uid);
    expect(dumpValue(dump.stdout, '0008,103e')).toBe('wound.mp4');
    expect(dumpValue(dump.stdout, '0028,0004')).toBe('YBR_PARTIAL_420');
    expect(dumpValue(dump.stdout, '0028,0008')).toBe('50');
    expect(dumpValue(dump.stdout, '0018,1063')).toBe('40');
    expect(dumpValue(dump.stdout, '0018,0040')).toBe('25');
    expect(dumpValue(dump.stdout, '0008,2144')).toBe('25');
    expect(dump.stdout).toMatch(/^\(0028,0009\) AT \(0018,1063\)/m);
    expect(dump.stdout).toMatch(/^\(0028,0010\) US 240 /m);
    expect(dump.stdout).toMatch(/^\(0028,0011\) US 320 /m);
    expect(dump.stdout).toMatch(/^\(0028,0002\) US 3 /m);
    expect(dump.stdout).toMatch(/^\(0028,0100\) US 8 /m);
    // Encapsulated: an empty Basic Offset Table, then the MP4 file whole in one fragment.
    expect(dump.stdout).toMatch(/^\(7fe0,0010\) OB \(PixelSequence #=2\)/m);
    const stored = fs.readFileSync(file);
    const at = stored.indexOf(Buffer.from(clip));
    expect(at).toBeGreaterThan(0);
    expect(stored.readUInt32LE(at - 4)).toBe(clip.length + (clip.length % 2));

    if (hasTool('dciodvfy')) {
      const iod = spawnSync('dciodvfy', [file], { encoding: 'utf8' });
      // The one thing dciodvfy asks that the upload cannot know: which body region the video shows.
      const errors = `${iod.stdout}${iod.stderr}`.split('\n').filter((l) => l.startsWith('Error'));
      expect(errors).toEqual([
        'Error - Missing attribute Type 1C Conditional Element=<AnatomicRegionSequence> Module=<VLImage>',
      ]);
    }

    const level42File = await storedFile(second.sop_instance_uid, 'level42.dcm');
    const dump42 = dcmdump(level42File).stdout;
    expect(dump42).toMatch(/^\(0002,0010\) UI =MPEG4HighProfile\/Level4\.2For2DVideo /m);
    expect(dumpValue(dump42, '0028,0008')).toBe('30');
    expect(dumpValue(dump42, '0018,1063')).toBe('33.333333');
    expect(dumpValue(dump42, '0018,0040')).toBe('30');

    const soundFile = await storedFile(third.sop_instance_uid, 'sound.dcm');
    expect(dcmftest(soundFile)).toMatch(/^yes: /);
    expect(fs.readFileSync(soundFile).indexOf(Buffer.from(withSound))).toBeGreaterThan(0);

    // No temp file is left behind, neither the upload's nor the wrapped one.
    expect(filesUnder(path.join(server.dataDir, 'tmp'))).toEqual([]);
  });

  it('plays back: the Summary lists a video URL that serves the stored MP4 with byte ranges', async () => {
    // Odd length on purpose: the fragment carries a pad byte that playback must not send.
    const clip = oddLength(h264Mp4({ seconds: 2 }));
    expect(clip.length % 2).toBe(1);
    const answer = await wrap(FORM, [{ name: 'play.mp4', bytes: clip }]);
    expect(answer.status).toBe(202);
    const thumbnails = await server.api.get('study/thumbnails', { sid, uuid: answer.body.study_uuid });
    const [series] = thumbnails.body.thumbnails;
    expect(series).toMatchObject({ modality: 'XC', image_count: 1, url: null });
    const [instance] = answer.body.instances;
    expect(series.video_url).toBe(
      `/dicomweb/studies/${answer.body.study_uid}/series/${instance.series_uid}/instances/${instance.sop_instance_uid}/rendered`,
    );
    const url = `${server.url}${series.video_url}?sid=${sid}`;
    const size = clip.length;

    const whole = await fetch(url, { headers: { accept: '*/*' } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(clip);

    const first = await fetch(url, { headers: { range: 'bytes=0-99' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(clip.slice(0, 100));
    const open = await fetch(url, { headers: { range: `bytes=${size - 10}-` } });
    expect(open.status).toBe(206);
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(clip.slice(size - 10));
    const suffix = await fetch(url, { headers: { range: 'bytes=-7' } });
    expect(suffix.headers.get('content-range')).toBe(`bytes ${size - 7}-${size - 1}/${size}`);
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(clip.slice(size - 7));
    const past = await fetch(url, { headers: { range: `bytes=${size}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);

    // Not a picture: no PNG of it, no frame, no thumbnail.
    expect((await fetch(url, { headers: { accept: 'image/png' } })).status).toBe(406);
    const seriesPath = `${server.url}/dicomweb/studies/${answer.body.study_uid}/series/${instance.series_uid}`;
    expect((await fetch(`${seriesPath}/thumbnail?sid=${sid}`)).status).toBe(406);

    // Access is audited as a study view (a player's repeated range requests as one); others cannot
    // tell the study exists.
    const views = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('object_id', '=', answer.body.study_uuid)
      .where('action', '=', 'STUDY_VIEW')
      .execute();
    const vias = views.map((v) => (typeof v.detail === 'string' ? JSON.parse(v.detail) : v.detail).via);
    expect(vias.filter((v) => v === 'wado-rs video')).toHaveLength(1);
    const partner = await server.api.login('partner@demo.local');
    const foreign = await fetch(`${server.url}${series.video_url}?sid=${partner}`);
    expect(foreign.status).toBe(404);
    expect((await fetch(`${server.url}${series.video_url}?sid=forged`)).status).toBe(401);
    expect((await fetch(`${server.url}${series.video_url}`)).status).toBe(401);
  });

  it('refuses other codecs, damaged files and look-alikes, storing nothing', async () => {
    const clip = h264Mp4();
    const faststart = h264Mp4({ faststart: true });
    const cases: [string, Upload, string, RegExp][] = [
      [
        'MPEG-4 Part 2',
        { name: 'old.mp4', bytes: mpeg4Part2Mp4() },
        'UNSUPPORTED_VIDEO_CODEC',
        /MPEG-4 Part 2/,
      ],
      ['High 10', { name: 'ten.mp4', bytes: high10Mp4() }, 'UNSUPPORTED_VIDEO_CODEC', /High 10/],
      ['no video', { name: 'voice.mp4', bytes: audioOnlyMp4() }, 'INVALID_FILE_CONTENT', /no video track/],
      [
        'cut, movie box last',
        { name: 'cut.mp4', bytes: clip.slice(0, Math.floor(clip.length * 0.8)) },
        'INVALID_FILE_CONTENT',
        /cut off/,
      ],
      [
        'cut, movie box first',
        { name: 'cut-fs.mp4', bytes: faststart.slice(0, Math.floor(faststart.length / 2)) },
        'INVALID_FILE_CONTENT',
        /cut off/,
      ],
      [
        'cut inside the last chunk, media data box open-ended',
        { name: 'open-cut.mp4', bytes: cutInsideOpenMdat(faststart, 10) },
        'INVALID_FILE_CONTENT',
        /cut off: media data runs past the end of the file/,
      ],
      [
        'zero timescale',
        { name: 'no-clock.mp4', bytes: editMp4(clip, (b) => payloadOf(b, 'mdhd').setUint32(12, 0)) },
        'INVALID_FILE_CONTENT',
        /zero timescale/,
      ],
      [
        'frame counts disagree',
        { name: 'counts.mp4', bytes: editMp4(clip, (b) => payloadOf(b, 'stsz').setUint32(8, 49)) },
        'INVALID_FILE_CONTENT',
        /disagree on the number of frames/,
      ],
      [
        'text named mp4',
        { name: 'notes.mp4', bytes: new TextEncoder().encode('not a video at all'), type: 'video/mp4' },
        'INVALID_FILE_TYPE',
        /not a PDF, JPEG, PNG or MP4/,
      ],
    ];
    const before = await counts();
    for (const [name, file, errorType, detail] of cases) {
      // Next to a good video: one bad file refuses the whole call.
      const answer = await wrap(FORM, [{ name: 'good.mp4', bytes: clip }, file]);
      expect(answer.status, name).toBe(412);
      expect(answer.body.error_type, name).toBe(errorType);
      expect(answer.body.error_subtype, name).toBe(file.name);
      expect(String(answer.body.error_data), name).toMatch(detail);
    }
    expect(await counts()).toEqual({ ...before, temps: 0 });
  });
});
