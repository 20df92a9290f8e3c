// `server DIR`, as MinIO is started: an S3-compatible server on 0.0.0.0:9000 storing under DIR,
// whose one key pair is MinIO's root user and password (MINIO_ROOT_USER, MINIO_ROOT_PASSWORD).
import { createRequire } from 'node:module';
import S3rver from 's3rver';

const [command, directory] = process.argv.slice(2);
const { MINIO_ROOT_USER: user, MINIO_ROOT_PASSWORD: password } = process.env;
if (command !== 'server' || !directory || !user || !password) {
  console.error('usage: MINIO_ROOT_USER=… MINIO_ROOT_PASSWORD=… server DIR');
  process.exit(2);
}
// s3rver knows the key pairs of its one account; MinIO's root credentials become one of them.
createRequire(import.meta.url)('s3rver/lib/models/account.js').DUMMY_ACCOUNT.createKeyPair(user, password);
// Path-style only: the host name the cluster reaches it by (s3) is not a bucket's.
const server = new S3rver({ address: '0.0.0.0', port: 9000, directory, silent: true, vhostBuckets: false });
const { port } = await server.run();
console.log(`S3-compatible stand-in on port ${port}, storing under ${directory}`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
