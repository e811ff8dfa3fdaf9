"""Run the project's nox sessions, installing nox first where it is missing.

    python run.py test          # each package alone, its build, conformance,
                                # Chainer's own test suite, docs, examples,
                                # lint
    python run.py demo          # the walkthrough in demo/
    python run.py docs          # the docs site (docs/_build/html) and its
                                # doctests
    python run.py build         # sdist and wheel of each package, twine check
    python run.py oldest        # each package's tests against the oldest
                                # dependencies its ranges allow
    python run.py lint          # ruff and the import rules
    python run.py chainer_suite # Chainer 7.8.1's own tests
    python run.py differential  # values and gradients beside Chainer 7.8.1
    python run.py bench         # bench/ workloads beside Chainer 7.8.1 and
                                # PyTorch

Any further arguments go to nox unchanged.  Only Python and pip are needed:
without nox, a private environment ``.venv-tools/`` is made for it.  Outside
CI, nox reuses the environments it made before; under CI (``CI=true``) it
makes them anew.
"""
import importlib.util
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
TOOLS_ENV = ROOT / '.venv-tools'
NOX = 'nox==2026.10.20'
COMMANDS = {
    'test': ('tests', 'build', 'conformance', 'chainer_suite', 'docs',
             'examples', 'lint'),
    'demo': ('demo',),
    'docs': ('docs',),
    'build': ('build',),
    'oldest': ('oldest',),
    'lint': ('lint',),
    'chainer_suite': ('chainer_suite',),
    'differential': ('differential',),
    'bench': ('bench',),
}


def _tools_python():
    """The interpreter of ``.venv-tools``, made with nox in it if needed."""
    bin_dir = 'Scripts' if os.name == 'nt' else 'bin'
    python = TOOLS_ENV / bin_dir / ('python.exe' if os.name == 'nt'
                                    else 'python')
    has_nox = python.exists() and subprocess.call(
        [str(python), '-c', 'import nox'], stderr=subprocess.DEVNULL) == 0
    if not has_nox:
        print(f'run.py: installing {NOX} into {TOOLS_ENV}', flush=True)
        try:
            venv.create(TOOLS_ENV, with_pip=True, clear=True)
        except subprocess.CalledProcessError as error:
            sys.exit(f'run.py: could not make {TOOLS_ENV} ({error}); this '
                     'Python lacks venv with pip (on Debian: apt-get install '
                     'python3-venv), or install nox and run again')
        subprocess.check_call(
            [str(python), '-m', 'pip', 'install', '--quiet', NOX])
    return str(python)


def _nox_python():
    """An interpreter that can run nox: this one, or the tools one."""
    if importlib.util.find_spec('nox') is not None:
        return sys.executable
    return _tools_python()


def main(argv):
    if sys.version_info < (3, 10):
        print('run.py: Kusari needs Python 3.10 or newer, this is '
              f'{sys.version.split()[0]}', file=sys.stderr)
        return 2
    if not argv or argv[0] not in COMMANDS:
        names = ' | '.join(COMMANDS)
        print(f'usage: python run.py {{{names}}} [nox arguments...]',
              file=sys.stderr)
        return 2
    command, extra = argv[0], argv[1:]
    reuse = ([] if os.environ.get('CI', '').lower() == 'true'
             else ['--reuse-existing-virtualenvs'])
    nox_args = ['--noxfile', str(ROOT / 'noxfile.py'), *reuse,
                '--sessions', *COMMANDS[command], *extra]
    return subprocess.call([_nox_python(), '-m', 'nox', *nox_args])


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
