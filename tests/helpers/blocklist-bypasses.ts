/**
 * 42 commands that walk past bash's blocklist (bash-guard.ts) and would destroy, rewrite or
 * plant files in the folder `target`: given `/` they are `rm -rf /` spelled another way, and
 * the blocklist lets every one through. The sandbox is what must contain them.
 */
export interface Bypass {
  readonly name: string
  readonly command: (target: string) => string
}

const base64 = (text: string): string => Buffer.from(text).toString('base64')
const hex = (text: string): string =>
  [...Buffer.from(text)].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('')

export const BLOCKLIST_BYPASSES: readonly Bypass[] = [
  { name: 'find -delete', command: (t) => `find ${t} -mindepth 1 -delete` },
  { name: 'find -exec rm', command: (t) => `find ${t} -mindepth 1 -exec rm -rf {} +` },
  { name: 'eval', command: (t) => `eval "rm -rf ${t}"` },
  { name: 'command in a variable', command: (t) => `x=rm; $x -rf ${t}` },
  { name: 'path looked up', command: (t) => `"$(command -v rm)" -rf ${t}` },
  { name: 'process substitution', command: (t) => `source <(echo "rm -rf ${t}")` },
  { name: 'dot from stdin', command: (t) => `. /dev/stdin <<< "rm -rf ${t}"` },
  { name: 'base64 to bash', command: (t) => `echo ${base64(`rm -rf ${t}`)} | base64 -d | bash` },
  { name: 'hex via printf', command: (t) => `$(printf '${hex('rm')}') -rf ${t}` },
  { name: 'printf to sh', command: (t) => `printf 'rm -rf ${t}' | sh` },
  { name: 'here-string', command: (t) => `bash <<< "rm -rf ${t}"` },
  { name: 'install over', command: (t) => `install -m 000 /dev/null ${t}/file` },
  { name: 'python rmtree', command: (t) => `python3 -c "import shutil; shutil.rmtree('${t}')"` },
  { name: 'perl rmtree', command: (t) => `perl -MFile::Path -e 'rmtree("${t}")'` },
  { name: 'awk system', command: (t) => `awk 'BEGIN { system("rm -rf ${t}") }'` },
  { name: 'xargs', command: (t) => `echo ${t} | xargs rm -rf` },
  { name: 'function', command: (t) => `wipe() { rm -rf "$1"; }; wipe ${t}` },
  { name: 'positional parameters', command: (t) => `set -- ${t}; rm -rf "$@"` },
  { name: 'command substitution', command: (t) => `rm -rf $(echo ${t})` },
  { name: 'backticks', command: (t) => `\`echo rm\` -rf ${t}` },
  { name: 'default expansion', command: (t) => `rm -rf "\${UNSET_DIR:-${t}}"` },
  { name: 'IFS split', command: (t) => `IFS=,; c="rm,-rf,${t}"; $c` },
  {
    name: 'alias',
    command: (t) => `shopt -s expand_aliases\nalias wipe='rm -rf'\nwipe ${t}`,
  },
  { name: 'sh -c with arguments', command: (t) => `sh -c '"$0" -rf "$1"' rm ${t}` },
  { name: 'cd then glob', command: (t) => `cd ${t} && rm -rf -- * .[!.]*` },
  { name: 'script file', command: (t) => `echo 'rm -rf ${t}' > wipe.sh && bash wipe.sh` },
  { name: 'truncate', command: (t) => `truncate -s 0 ${t}/file ${t}/sub/nested` },
  { name: 'redirect over', command: (t) => `: > ${t}/file; echo pwned > ${t}/sub/nested` },
  { name: 'append', command: (t) => `echo pwned >> ${t}/file` },
  { name: 'dd over a file', command: (t) => `dd if=/dev/zero of=${t}/file bs=1 count=8` },
  { name: 'sed -i', command: (t) => `sed -i d ${t}/file` },
  { name: 'cp over', command: (t) => `cp /dev/null ${t}/file` },
  { name: 'tee', command: (t) => `echo pwned | tee ${t}/file` },
  { name: 'mv away', command: (t) => `mv ${t}/file ${t}/file.gone; mv ${t} ${t}.gone` },
  { name: 'symlink over', command: (t) => `ln -sf /dev/null ${t}/file` },
  { name: 'chmod', command: (t) => `chmod -R 000 ${t}` },
  { name: 'unlink', command: (t) => `unlink ${t}/file` },
  { name: 'shred', command: (t) => `shred -u ${t}/file` },
  { name: 'plant a file', command: (t) => `touch ${t}/planted; mkdir ${t}/planted-folder` },
  { name: 'tar extract', command: (t) => `tar -cf - -C /etc hostname | tar -xf - -C ${t}` },
  {
    name: 'python write',
    command: (t) => `python3 -c "open('${t}/file', 'w').write('pwned')"`,
  },
  { name: 'perl unlink glob', command: (t) => `perl -e 'unlink glob("${t}/* ${t}/sub/*")'` },
]
