import type { TestProject } from 'vitest/node';
import { buildImage, hasPodman, imageSizeMb, nodeBaseImage, REPOSITORY } from '../support/podman.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The ID of the image this run built from the repository's Containerfile on the local Node 20
     * base ('' without podman): both deploy tests run exactly it, whatever the tag names by then.
     */
    inboxImage: string;
    /** The local Node 20 base it was built on (the BASE_IMAGE build argument). */
    nodeBaseImage: string;
  }
}

export const INBOX_IMAGE = 'localhost/imaging-inbox:test';

/**
 * Builds the product image once for the deploy tests: the local base first (made once, then found
 * by its tag), then the repository's Containerfile on it, from podman's layer cache when nothing
 * changed. Prints how long the build took and the image's size. The tests get the image's ID, not
 * its tag: another checkout's run on the same machine may tag its own build meanwhile.
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
  const { seconds, imageId } = await buildImage(INBOX_IMAGE, 'Containerfile', REPOSITORY, base);
  console.log(
    `Built ${INBOX_IMAGE} (${imageId.slice(0, 12)}) in ${seconds} s; image size ${await imageSizeMb(imageId)} MB`,
  );
  project.provide('inboxImage', imageId);
  project.provide('nodeBaseImage', base);
}
