"""Sessions: each package alone (and against its oldest dependencies), the
packages' build, conformance per device, Chainer's own test suite, docs,
examples, lint, demo, bench.

Run through ``python run.py`` (which installs nox where it is missing) or
``nox -s NAME``.  Local packages are installed from their directories, not
editable, so a session sees what a user's ``pip install`` would give; which
local packages a package needs is read from its ``pyproject.toml``.
"""
import dataclasses
import glob
import shutil
import subprocess
import sys
from pathlib import Path

import nox
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent
TEST_TOOLS = ('pytest', 'hypothesis', 'scipy')
RUFF = 'ruff==0.17.6'
COSMIC_RAY = 'cosmic-ray==8.7.0'
LINTED = ('packages', 'conformance', 'bench', 'demo', 'examples', 'lint',
          'noxfile.py', 'run.py', 'conftest.py')
# Extras that need hardware: installed only where the hardware is found.
GPU_EXTRAS = frozenset({'cuda'})
TORCH_WHEELS = '/opt/wheels/torch-2.13.0+cpu-*.whl'
CUDA_PROBE = """\
try:
    import cupy
    count = cupy.cuda.runtime.getDeviceCount()
except Exception as error:
    print(f'{type(error).__name__}: {error}')
else:
    print('available' if count else 'CuPy sees no GPU')
"""

nox.options.sessions = ['tests', 'build', 'conformance', 'chainer_suite',
                        'docs', 'examples', 'lint']


@dataclasses.dataclass(frozen=True)
class LocalPackage:
    """One of packages/*: where it is, what it needs, its extras."""

    directory: Path
    distribution: str
    version: str
    requires: tuple
    extras: tuple
    build_requires: tuple
    extra_requires: tuple
    # Requirement objects: its dependencies and those of its extras that
    # need no GPU.
    requirements: tuple

    def spec(self, extras=None):
        """Its pip argument with ``extras`` (None: all that need no GPU)."""
        if extras is None:
            extras = [e for e in self.extras if e not in GPU_EXTRAS]
        if extras:
            return f'{self.directory}[{",".join(extras)}]'
        return str(self.directory)


def _read_local_packages():
    """Every packages/*/pyproject.toml, by canonical distribution name."""
    found = {}
    for pyproject in sorted(ROOT.glob('packages/*/pyproject.toml')):
        with pyproject.open('rb') as file:
            metadata = tomllib.load(file)
        project = metadata['project']
        dependencies = [Requirement(r)
                        for r in project.get('dependencies', ())]
        name = canonicalize_name(project['name'])
        extras = project.get('optional-dependencies', {})
        extra_dependencies = [
            Requirement(r)
            for extra, reqs in extras.items() if extra not in GPU_EXTRAS
            for r in reqs]
        found[name] = LocalPackage(
            pyproject.parent, name, project['version'],
            tuple(canonicalize_name(r.name) for r in dependencies),
            tuple(extras), tuple(metadata['build-system']['requires']),
            tuple(canonicalize_name(r.name) for r in extra_dependencies),
            tuple(dependencies + extra_dependencies))
    return found


LOCAL = _read_local_packages()


def _with_local_dependencies(roots):
    """``roots`` and the local packages they need, each after its needs."""
    ordered = {}

    def visit(package):
        for name in package.requires:
            if name in LOCAL and name not in ordered:
                visit(LOCAL[name])
        ordered[package.distribution] = package

    for root in roots:
        if root.distribution not in ordered:
            visit(root)
    return list(ordered.values())


# By directory name (``array``), in dependency order.
PACKAGES = {p.directory.name: p
            for p in _with_local_dependencies(LOCAL.values())}


def _gpu_present():
    """Whether an NVIDIA GPU answers, so that CuPy is worth installing."""
    if shutil.which('nvidia-smi') is None:
        return False
    probe = subprocess.run(['nvidia-smi', '-L'], capture_output=True,
                           text=True)
    return probe.returncode == 0 and 'GPU' in probe.stdout


def _install(session, packages, tools=(), extras_for=None, pip_options=()):
    """Install local packages and tools in one pip call.

    One call lets pip take every ``kusari-*`` requirement from the
    given directories instead of looking for it on the index.  Extras:
    ``extras_for`` maps a package to the extras it gets (None: all that
    need no GPU); packages it does not name get none.  When
    ``extras_for`` is None, every package gets all.
    The build backend is installed first and shared by every build, which
    is several times faster than an isolated build environment for each.
    ``pip_options`` go to that pip call (``-c constraints.txt``).
    """
    packages = list(packages)
    session.install(*sorted({r for p in packages for r in p.build_requires}))
    if extras_for is None:
        extras_for = dict.fromkeys(packages)
    specs = [p.spec(extras_for[p]) if p in extras_for else p.spec(())
             for p in packages]
    session.install('--no-build-isolation', *pip_options, *specs, *tools)


def _test_alone(session, under_test, sources=None, pip_options=()):
    """Install ``under_test`` with only what it declares, then run its
    tests and the example of its README.

    ``sources`` maps a local dependency's distribution to the
    LocalPackage to install in its place (an older release's sources).
    """
    # Local packages its extras name come too (pip finds them only here).
    extra_locals = [LOCAL[n] for n in under_test.extra_requires
                    if n in LOCAL]
    packages = [(sources or {}).get(p.distribution, p)
                for p in _with_local_dependencies([*extra_locals,
                                                   under_test])]
    tools = TEST_TOOLS
    if _gpu_present():
        # Where a GPU answers, CuPy comes too and the gpu-marked tests run.
        tools += (f'{PACKAGES["array"].directory}[cuda]',)
    _install(session, packages, tools, extras_for={under_test: None},
             pip_options=pip_options)
    name = under_test.directory.name
    session.run('pytest', f'packages/{name}/tests',
                f'packages/{name}/README.md', '--doctest-glob=README.md',
                '-q', *session.posargs)


@nox.session
@nox.parametrize('package', list(PACKAGES))
def tests(session, package):
    """One package alone: only it and what it declares, then its tests
    and its README's example."""
    _test_alone(session, PACKAGES[package])


def _session_files(session):
    """A directory of the session's own, made if needed.

    Not ``session.create_tmp()``: that points TMPDIR into the repository,
    and tests that run pytest in a temporary directory would then see
    module names under ``.nox``.
    """
    files = Path(session.virtualenv.location) / 'files'
    files.mkdir(exist_ok=True)
    return files


def _lower_bound(requirement):
    """The lowest version ``requirement`` admits (None: no lower bound),
    written out to three parts: ``>=0.1`` admits 0.1.0 first."""
    bounds = [Version(s.version) for s in requirement.specifier
              if s.operator in ('>=', '~=', '==')]
    if not bounds:
        return None
    release = max(bounds).release
    return Version('.'.join(map(str, release + (0,) * (3 - len(release)))))


def _release_sources(session, package, version):
    """``package``'s sources at its release ``version``: the tree of the
    git tag ``<distribution>-v<version>``, extracted beside the session's
    environment, as a LocalPackage."""
    tag = f'{package.distribution}-v{version}'
    found = subprocess.run(['git', 'rev-parse', '--verify', '--quiet',
                            f'refs/tags/{tag}'], cwd=ROOT,
                           capture_output=True, text=True)
    if found.returncode != 0:
        session.error(f'{package.distribution} is at {package.version} '
                      f'here, and a range allows {version}: tag that '
                      f'release as {tag}, or raise the lower bound')
    target = _session_files(session) / tag
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    relative = package.directory.relative_to(ROOT).as_posix()
    archive = subprocess.run(['git', 'archive', '--format=tar', tag,
                              relative], cwd=ROOT, capture_output=True,
                             check=True).stdout
    subprocess.run(['tar', '-x', '-C', str(target)], input=archive,
                   check=True)
    return dataclasses.replace(package, directory=target / relative,
                               version=str(version))


@nox.session
@nox.parametrize('package', list(PACKAGES))
def oldest(session, package):
    """One package's tests against the oldest dependencies it allows.

    Each requirement with a lower bound is held to that bound (pip
    constraints): NumPy 2.0.0, SciPy, onnx, ... at their oldest allowed
    release, and each local package at the oldest version its range
    admits, built from the current sources where they are that version,
    else from the release's git tag (``kusari-array-v0.1.0``).
    """
    under_test = PACKAGES[package]
    constraints, sources = [], {}
    for requirement in under_test.requirements:
        name = canonicalize_name(requirement.name)
        lowest = _lower_bound(requirement)
        if name in LOCAL:
            dependency = LOCAL[name]
            if lowest is None:
                session.error(f'{under_test.distribution} needs {name} '
                              f'without a lower bound: give its range')
            current = Version(dependency.version)
            if current < lowest:
                session.error(f'{under_test.distribution} needs '
                              f'{requirement}, and {name} is only at '
                              f'{current}')
            if current > lowest:
                sources[name] = _release_sources(session, dependency,
                                                 lowest)
        if lowest is not None:
            constraints.append(f'{name}=={lowest}\n')
    constraint_file = _session_files(session) / 'oldest.txt'
    constraint_file.write_text(''.join(sorted(set(constraints))))
    session.log('held to: ' + ', '.join(sorted(set(
        c.strip() for c in constraints))))
    _test_alone(session, under_test, sources,
                pip_options=('-c', str(constraint_file)))


@nox.session
def build(session):
    """Each package's sdist and wheel, built as for a release, then
    ``twine check --strict`` of all: the metadata PyPI shows (README as
    long description, license, classifiers) without a warning.

    Fails too where a package's LICENSE differs from the root one.
    """
    license_text = (ROOT / 'LICENSE').read_text()
    for package in PACKAGES.values():
        if (package.directory / 'LICENSE').read_text() != license_text:
            session.error(f'{package.directory}/LICENSE differs from the '
                          f'root LICENSE')
    session.install('build', 'twine', *sorted(
        {r for p in PACKAGES.values() for r in p.build_requires}))
    out = Path(session.create_tmp()) / 'dist'
    shutil.rmtree(out, ignore_errors=True)
    for package in PACKAGES.values():
        # The build backend installed above serves every build.
        session.run('python', '-m', 'build', '--no-isolation', '--outdir',
                    str(out), str(package.directory))
    built = sorted(str(p) for p in out.iterdir())
    if len(built) != 2 * len(PACKAGES):
        session.error(f'expected an sdist and a wheel of each of the '
                      f'{len(PACKAGES)} packages, got {built}')
    session.run('twine', 'check', '--strict', *built)


@nox.session
@nox.parametrize('device', ['numpy', 'cuda'])
def conformance(session, device):
    """Every function's conformance checks on one device.

    On ``cuda`` without CuPy or a GPU nothing is checked: the session says
    why and ends as skipped, not passed.
    """
    tools = TEST_TOOLS + ('pytest-xdist',)
    if device == 'cuda':
        if not _gpu_present():
            session.skip('no NVIDIA GPU answers here: no CUDA check ran')
        tools += (f'{PACKAGES["array"].directory}[cuda]',)
    _install(session, PACKAGES.values(), tools)
    if device == 'cuda':
        # The verdict is the last line: CuPy may warn before it.
        reason = session.run('python', '-c', CUDA_PROBE,
                             silent=True).strip().splitlines()[-1]
        if reason != 'available':
            session.skip(f'CUDA is unavailable ({reason}): no CUDA check '
                         f'ran')
    # Two workers: the records are independent, and CI has two cores.
    session.run('pytest', 'conformance', '-q', '-n', '2',
                f'--device={device}', *session.posargs)


@nox.session
def mutation(session):
    """Mutation testing of one family or file of kusari.autograd.functions
    or kusari.links against its conformance records
    (conformance/mutation.py), e.g. ``nox -s mutation --
    functions/activation``; prints the score and the surviving mutants.

    cosmic-ray mutates the sources in place, so autograd and links are
    installed editable from this tree.
    """
    if not session.posargs:
        session.error('name a family or file: nox -s mutation -- '
                      'functions/activation')
    _install(session, PACKAGES.values(), TEST_TOOLS + (COSMIC_RAY,))
    # hatchling builds an editable install with ``editables``.
    session.install('editables')
    for name in ('autograd', 'links'):
        session.install('--no-build-isolation', '--no-deps', '-e',
                        str(PACKAGES[name].directory))
    session.run('python', 'conformance/mutation.py', *session.posargs,
                env={'OPENBLAS_NUM_THREADS': '1'})


@nox.session
def chainer_suite(session):
    """Chainer 7.8.1's own tests (``../shared/chainer-tests``) against every
    package installed: fails on a test that passes on Chainer and fails
    here unlisted (see conformance/chainer_suite.py).

    Arguments after ``--`` go to conformance/chainer_suite.py (areas,
    ``--update-open``, ``--tests DIR``).
    """
    _install(session, PACKAGES.values(),
             ('pytest', 'pytest-timeout', 'mock', 'six', 'scipy'))
    session.run('python', 'conformance/chainer_suite.py', '--python',
                str(Path(session.bin) / 'python'), *session.posargs,
                env={'OPENBLAS_NUM_THREADS': '1'})


@nox.session
def lint(session):
    """ruff over the code (its settings are in pyproject.toml), then the
    import rules of lint/: no package imports a private name of another,
    and no package has an import circle. Both only read the sources."""
    session.install(RUFF, 'pytest')
    targets = [t for t in LINTED if (ROOT / t).exists()]
    session.run('ruff', 'check', *targets, *session.posargs)
    session.run('pytest', 'lint', '-q')


@nox.session
def docs(session):
    """The docs site built warning-free, then the guide's code as doctests.

    The site goes to docs/_build/html. Sphinx 9.0 is the last release for
    Python 3.11; hypothesis runs the conformance example of the guide.
    """
    _install(session, PACKAGES.values(),
             ('sphinx==9.0.4', 'myst-parser==5.2.0', 'furo==2025.12.19',
              'pytest', 'hypothesis'))
    # -E rereads every page, so that no warning hides in an old build.
    session.run('sphinx-build', '-E', '-W', '--keep-going', '-q',
                '-b', 'html', 'docs', 'docs/_build/html')
    session.run('pytest', '--doctest-glob=*.md', 'docs',
                '--ignore=docs/_build', '-q', *session.posargs)


@nox.session
def examples(session):
    """Every example's ``--smoke`` run, and LeNet on the bundled digits."""
    _install(session, PACKAGES.values(), ('pytest',))
    session.run('pytest', 'examples/tests', '-q', *session.posargs)


@nox.session
def demo(session):
    """The walkthrough, then two models trained on data/ (demo/main.py).

    Arguments after ``--`` go to demo/main.py (``--out DIR``; the default
    is ``result/`` under the current directory).
    """
    # kusari-chainer brings matplotlib: PlotReport draws the plots.
    _install(session, _with_local_dependencies([PACKAGES['chainer']]),
             extras_for={})
    # The models' matrices are small: more BLAS threads only contend.
    session.run('python', 'demo/main.py', *session.posargs,
                env={'OPENBLAS_NUM_THREADS': '1'})


def _torch_requirement():
    """The CPU torch wheel on this disk, else the exact release."""
    wheels = glob.glob(TORCH_WHEELS)
    return wheels[0] if wheels else 'torch==2.13.0'


ORACLES = {
    # Chainer 7.8.1 builds only with an old setuptools and NumPy 1; the
    # differential data and report checks read HDF5, images and plots.
    'chainer': ((('setuptools<74', 'wheel'),
                 ('--no-build-isolation', 'chainer==7.8.1', 'numpy<2',
                  'scipy', 'pytest', 'h5py<3.12', 'pillow<11',
                  'matplotlib<3.10')),
                'import chainer, h5py, PIL, matplotlib; '
                'assert chainer.__version__ == "7.8.1"'),
    'torch': (((_torch_requirement(), 'numpy'),),
              'import torch; assert torch.__version__.startswith("2.13.0")'),
}


def _oracle_python(session, name):
    """The python of ``.nox/oracle-<name>``, made on first use and kept.

    Its pins never change, so it is reused even where nox makes the
    session environments anew.
    """
    installs, check = ORACLES[name]
    location = ROOT / '.nox' / f'oracle-{name}'
    python = str(location / 'bin' / 'python')
    ready = Path(python).exists() and subprocess.call(
        [python, '-c', check], stderr=subprocess.DEVNULL) == 0
    if not ready:
        session.run(sys.executable, '-m', 'venv', '--clear', str(location),
                    external=True)
        for arguments in installs:
            session.run(python, '-m', 'pip', 'install', *arguments,
                        external=True)
    return python


@nox.session
def bench(session):
    """Bench workloads: Kusari, Chainer 7.8.1 and PyTorch, interleaved, at
    1 thread and at the machine's core count; fails on a thread cliff.

    Arguments after ``--`` go to bench/compare.py (``--rounds``,
    ``--workloads``, ``--threads``, ``--quick``, ``--json``).
    """
    _install(session, PACKAGES.values())
    session.run('python', 'bench/compare.py',
                '--kusari', str(Path(session.bin) / 'python'),
                '--chainer', _oracle_python(session, 'chainer'),
                '--torch', _oracle_python(session, 'torch'),
                *session.posargs)


@nox.session
def differential(session):
    """Kusari against Chainer 7.8.1 run in its own environment."""
    _install(session, PACKAGES.values(), TEST_TOOLS)
    oracle = _oracle_python(session, 'chainer')
    session.run('pytest', 'conformance/differential', '-q',
                *session.posargs, env={'KUSARI_ORACLE_PYTHON': oracle})
