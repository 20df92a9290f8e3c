import type { TestProject } from 'vitest/node';
import { buildImage, hasPodman, imageSizeMb, nodeBaseImage, REPOSITORY } from '../support/podman.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The image built from the repository's Containerfile on the local Node 20 base ('' without podman). */
    inboxImage: string;
    /** The local Node 20 base it was built on (the BASE_IMAGE build argument). */
    nodeBaseImage: string;
  }
}

export const INBOX_IMAGE = 'localhost/imaging-inbox:test';

/**
 * Builds the product image once for the deploy tests: the local base first (made once, then found
 * by its tag), then the repository's Containerfile on it, from podman's layer cache when nothing
 * changed. Prints how long the build took and the image's size.
 */
export default async function setup(project: TestProject) {
  if (!hasPodman()) {
    console.log('podman is not installed (scripts/system-deps.sh installs it): the deploy tests are skipped');
    project.provide('inboxImage', '');
    project.provide('nodeBaseImage', '');
    return;
  }
  const base = await nodeBaseImage();
  console.log(`Building ${INBOX_IMAGE} from Containerfile on ${base}`);
  const { seconds } = await buildImage(INBOX_IMAGE, 'Containerfile', REPOSITORY, base);
  console.log(`Built ${INBOX_IMAGE} in ${seconds} s; image size ${await imageSizeMb(INBOX_IMAGE)} MB`);
  project.provide('inboxImage', INBOX_IMAGE);
  project.provide('nodeBaseImage', base);
}
