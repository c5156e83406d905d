import { describe, expect, it } from 'vitest'
import { refusedCommandReason } from '../../../../src/runtime/tools/bash'

/** Ordinary spellings of the same destructive commands: the guard's parser must see through. */
describe('the command guard reads wrappers, options and paths as the shell does', () => {
  it.each([
    ["bash -c -- 'rm -rf /'", /rm -r \/ would delete/],
    ["bash -e -c 'rm -rf /'", /rm -r \/ would delete/],
    ["bash -o pipefail -c 'rm -rf /'", /rm -r \/ would delete/],
    ["sh -ec 'rm -rf /'", /rm -r \/ would delete/],
    ["bash -c -x 'rm -rf /'", /rm -r \/ would delete/],
    ['nice -n 10 rm -rf /', /rm -r \/ would delete/],
    ['nice --adjustment=5 rm -rf /', /rm -r \/ would delete/],
    ['nice -10 rm -rf /', /rm -r \/ would delete/],
    ['exec -a x rm -rf /', /rm -r \/ would delete/],
    ['nohup nice -n 5 rm -rf /', /rm -r \/ would delete/],
    ['timeout 5 rm -rf /', /rm -r \/ would delete/],
    ['timeout -s KILL -k 3 5 rm -rf /', /rm -r \/ would delete/],
    ['env -u HOME -C /tmp rm -rf /', /rm -r \/ would delete/],
    ["env -S 'rm -rf /'", /rm -r \/ would delete/],
    ['env - rm -rf /', /rm -r \/ would delete/],
    ['command -p rm -rf /', /rm -r \/ would delete/],
    ['command -- rm -rf /', /rm -r \/ would delete/],
    ['stdbuf -o L rm -rf /', /rm -r \/ would delete/],
    ['ionice -c 3 rm -rf /', /rm -r \/ would delete/],
    ['time -p rm -rf /', /rm -r \/ would delete/],
    ['setsid rm -rf /', /rm -r \/ would delete/],
    ['A=1 nice -n 1 B=2 env C=3 rm -rf /', /rm -r \/ would delete/],
    ['nice -n 10 sudo ls', /sudo is not available/],
    ['dd if=/dev/zero of=/dev/../dev/sda', /writes straight onto a disk device/],
    ['dd if=/dev/zero of=//dev/sda', /writes straight onto a disk device/],
    ['dd if=/dev/zero of=/dev/./nvme0n1', /writes straight onto a disk device/],
    ['nice -n 5 dd if=/dev/zero of=/dev/sdb', /writes straight onto a disk device/],
  ])('refuses %s', (command, reason) => {
    expect(refusedCommandReason(command)).toMatch(reason)
  })

  it.each([
    "bash -c 'ls -la'",
    "bash -c -- 'echo rm -rf /'",
    'bash script.sh -c',
    'nice -n 10 make',
    'timeout 5 rm -rf ./build',
    'exec -a name ./server',
    'env -S "ls -l" .',
    'dd if=/dev/zero of=./dev/sda.img count=1',
    'dd if=/dev/sda of=/tmp/backup.img',
  ])('allows %s', (command) => {
    expect(refusedCommandReason(command)).toBeNull()
  })
})
