import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('BLOB_STORE configuration', () => {
  it('keeps the file store under DATA_DIR/blobs (or BLOB_DIR) by default', () => {
    expect(loadConfig({ DATA_DIR: '/srv/inbox' })).toMatchObject({
      blobDir: '/srv/inbox/blobs',
      s3: undefined,
    });
    expect(loadConfig({ BLOB_DIR: '/mnt/blobs' })).toMatchObject({ blobDir: '/mnt/blobs', s3: undefined });
  });

  it('takes a file:/// URL as the blob directory', () => {
    expect(loadConfig({ BLOB_STORE: 'file:///mnt/shared%20blobs' })).toMatchObject({
      blobDir: path.resolve('/mnt/shared blobs'),
      s3: undefined,
    });
  });

  it('takes an s3:// URL with endpoint, region and credentials from the environment', () => {
    expect(
      loadConfig({
        BLOB_STORE: 's3://inbox-blobs/site-a/',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        AWS_REGION: 'eu-central-1',
        AWS_ACCESS_KEY_ID: 'key',
        AWS_SECRET_ACCESS_KEY: 'secret',
      }).s3,
    ).toEqual({
      bucket: 'inbox-blobs',
      prefix: 'site-a/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
    expect(loadConfig({ BLOB_STORE: 's3://inbox-blobs' }).s3).toMatchObject({
      prefix: '',
      credentials: undefined,
    });
  });

  it('refuses other URLs and half credentials', () => {
    for (const bad of ['ftp://host/x', 'file://relative', 's3://', 's3://UPPER', '/plain/path']) {
      expect(() => loadConfig({ BLOB_STORE: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ BLOB_STORE: 's3://b-1', AWS_ACCESS_KEY_ID: 'key' })).toThrow(/go together/);
    expect(() => loadConfig({ BLOB_STORE: 's3://b-1', S3_ENDPOINT: 'not a url' })).toThrow(ConfigError);
  });
});
