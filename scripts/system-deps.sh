#!/usr/bin/env bash
# Debian packages the product and its tests use: Chromium for browser tests, dcmtk and Orthanc as
# real DICOM peers, PostgreSQL 15 and haproxy for the scale-out tests, isoinfo (genisoimage) to check ISO downloads,
# iproute2 and curl for the peers run in a private network namespace, dicom3tools (dciodvfy) to check
# the IODs of written files, zip for test archives, ffmpeg for test videos, python3-hl7's mllp_send to
# send HL7 v2 messages, podman to build and run the container image. Installs only what is missing.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v dcmodify >/dev/null 2>&1 || need+=(dcmtk)
# dciodvfy checks the IODs of files the server writes (non-DICOM wrapping tests).
command -v dciodvfy >/dev/null 2>&1 || need+=(dicom3tools)
command -v Orthanc >/dev/null 2>&1 || need+=(orthanc)
[ -e /usr/share/orthanc/plugins/libOrthancDicomWeb.so ] || need+=(orthanc-dicomweb)
[ -d /usr/lib/python3/dist-packages/pydicom/data/test_files ] || need+=(python3-pydicom)
command -v isoinfo >/dev/null 2>&1 || need+=(genisoimage)
# ffmpeg (with libx264) makes the MP4 videos the video wrapping tests upload; the server never runs it.
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
# Info-ZIP's zip writes the archives the upload wizard's ZIP reader is tested on.
command -v zip >/dev/null 2>&1 || need+=(zip)
# python3-hl7's mllp_send sends the HL7 v2 messages the MLLP listener tests receive.
command -v mllp_send >/dev/null 2>&1 || need+=(python3-hl7)
# xmllint (libxml2-utils) validates the ATNA audit messages against the DICOM audit message schema.
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
command -v ip >/dev/null 2>&1 || need+=(iproute2)
command -v curl >/dev/null 2>&1 || need+=(curl)
# haproxy balances the cluster test's three server processes (HTTP with /readyz checks, DICOM over TCP).
command -v haproxy >/dev/null 2>&1 || need+=(haproxy)
[ -x /usr/lib/postgresql/15/bin/initdb ] || command -v initdb >/dev/null 2>&1 || need+=(postgresql-15)
# podman (with runc, which runs containers on this kernel), debootstrap for the local Node 20 base
# image and podman-compose build and run the product image and deploy/compose.yaml (test/deploy).
command -v podman >/dev/null 2>&1 || need+=(podman)
[ -x /usr/sbin/runc ] || need+=(runc)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
command -v podman-compose >/dev/null 2>&1 || need+=(podman-compose)

if ((${#need[@]})); then
  echo "Installing Debian packages: ${need[*]}"
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
