"""Mutation testing of kusari.autograd.functions and kusari.links against
the conformance records, with cosmic-ray.

    python conformance/mutation.py functions/activation [functions/noise ...]
    python conformance/mutation.py functions/activation/elu.py
    python conformance/mutation.py layers/connection/linear.py

A target is a family directory or one file under
``packages/autograd/src/kusari/autograd/`` (the functions, checked by the
function records) or else under ``packages/links/src/kusari/links/`` (the
links, checked by the link records). Each file of a target gets its
own cosmic-ray session (in ``.mutation/``), whose test command runs only
the conformance records that reach that file (see :func:`covering`), with
the fast CI Hypothesis profile, stopping at the first failure, unshrunk
(``--no-shrink``). For a function file, that is the checks of
``test_functions.py`` and of the array-level backward a static_graph
replay calls (``test_array_backward.py``), and beside them the package's
own tests of the functions the file and its importers define, and the
records' kink conventions (see :func:`checks`), which check what the records
cannot: argument checks, their errors, the gradient exactly at a kink.
Only the realistic operators of :data:`KEPT_OPERATORS` are applied. The
score is killed / (killed + survived); every survivor is printed with its
file, line and change. ``--survivors`` runs again only the survivors of
each file's last session, after the records were widened for them.
``--sample 0.1`` runs a tenth of each file's mutants, drawn at random
(``--seed``), and gives the score with its 95 % interval: an estimate of a
family in a tenth of the time, to find where the records are weakest.

Cosmic-ray mutates the source files in place and restores them after each
mutant, so the autograd and links packages must be installed editable from
this tree (``nox -s mutation`` does that); do not edit the files while it
runs.
"""
import argparse
import ast
import contextlib
import hashlib
import json
import math
import os
import random
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / 'packages' / 'autograd' / 'src'
AUTOGRAD = SOURCE / 'kusari' / 'autograd'
LINKS_SOURCE = ROOT / 'packages' / 'links' / 'src'
LINKS = LINKS_SOURCE / 'kusari' / 'links'
FUNCTIONS_PACKAGE = 'kusari.autograd.functions'
WORK = ROOT / '.mutation'
# Beside the records: the package's tests of its functions, and the
# gradients at kinks (ids test_gradient_at_kink[name-path-dtype]).
PACKAGE_TESTS = ROOT / 'packages' / 'autograd' / 'tests' / 'functions'
KINKS = ROOT / 'conformance' / 'test_kinks.py'
# The module giving Variable its operators and methods: installed by
# ``import kusari.autograd``, imported by no function module and named by
# no test, so checked by the records of the operators and the engine's
# tests of Variable, run whole.
VARIABLE_METHODS = f'{FUNCTIONS_PACKAGE}._variable_methods'
VARIABLE_TESTS = ROOT / 'packages' / 'autograd' / 'tests' / 'test_variable.py'
# The records' second check file: array_backward (and array_backward_add),
# which only a static_graph replay calls, against backward (ids
# test_array_backward_equals_backward[name-dtype]).
ARRAY_BACKWARD = ROOT / 'conformance' / 'test_array_backward.py'
BIN = Path(sys.executable).parent

# The mutants a slip of the pen makes: arithmetic swapped within + - * /
# and ** (the bitwise and shift ones only crash, which any test catches),
# comparisons moved across their boundary or flipped, ``is`` and ``is
# not`` exchanged, a sign, a ``not``, a boolean, a constant +-1, a loop
# that never runs, ``and``/``or``, ``break``/``continue``.
KEPT_OPERATORS = tuple(re.compile(pattern) for pattern in (
    r'core/ReplaceBinaryOperator_(Add|Sub|Mul|Div|Pow|FloorDiv|Mod)_'
    r'(Add|Sub|Mul|Div|Pow)$',
    r'core/ReplaceComparisonOperator_(Eq|NotEq|Lt|LtE|Gt|GtE)_'
    r'(Eq|NotEq|Lt|LtE|Gt|GtE)$',
    r'core/ReplaceComparisonOperator_(Is_IsNot|IsNot_Is)$',
    r'core/ReplaceUnaryOperator_(USub_UAdd|Delete_USub|Delete_Not)$',
    r'core/(AddNot|ReplaceTrueWithFalse|ReplaceFalseWithTrue)$',
    r'core/(ReplaceAndWithOr|ReplaceOrWithAnd)$',
    r'core/(ReplaceBreakWithContinue|ReplaceContinueWithBreak)$',
    r'core/(NumberReplacer|ZeroIterationForLoop)$',
))


def kept(operator):
    """Whether the cosmic-ray operator ``operator`` is applied."""
    return any(pattern.match(operator) for pattern in KEPT_OPERATORS)


def module_name(path):
    """The dotted module name of a source file under ``SOURCE`` or
    ``LINKS_SOURCE``."""
    path = Path(path).resolve()
    source = LINKS_SOURCE if path.is_relative_to(LINKS_SOURCE) else SOURCE
    parts = path.relative_to(source).with_suffix('').parts
    if parts[-1] == '__init__':
        parts = parts[:-1]
    return '.'.join(parts)


def covering(record_modules, module, importers=()):
    """The names of the records that check ``module``.

    ``record_modules`` maps a record name to the module defining its
    function (or to the family package, for operators). A module defining
    public functions is checked by their records; one defining none that
    have a record, by the records of the modules in ``importers`` (those
    importing it) and those of its family package; a private helper module
    or a package by the records of its importers, else by every record of
    its family.
    """
    def where_in(modules):
        return [name for name, where in record_modules.items()
                if where in modules]

    own = where_in({module})
    family = '.'.join(module.split('.')[:4])
    if module.count('.') > 3 and not module.rsplit('.', 1)[-1].startswith(
            '_'):
        return own or where_in(set(importers) | {family})
    return where_in(importers) or [
        name for name, where in record_modules.items()
        if where == family or where.startswith(family + '.')]


def _import_pattern(module):
    """A regular expression matching an import of ``module``."""
    package, _, last = module.rpartition('.')
    return (rf'^\s*(from|import)\s+{re.escape(module)}(?![\w.])|'
            rf'^\s*from\s+{re.escape(package)}\s+import\s+'
            rf'[\w\s,()]*?\b{re.escape(last)}\b')


def importers(module, sources):
    """The modules of ``sources`` (module name: source text) that import
    ``module``, directly or through private helper modules of
    ``sources``; packages (which only re-export) are left out."""
    packages = {name.rsplit('.', 1)[0] for name in sources}
    found = set()
    frontier = {module}
    while frontier:
        pattern = re.compile('|'.join(_import_pattern(name)
                                      for name in sorted(frontier)),
                             re.MULTILINE)
        frontier = {name for name, text in sources.items()
                    if name not in found and name != module
                    and name not in packages and pattern.search(text)}
        found |= frontier
        frontier = {name for name in frontier
                    if name.rsplit('.', 1)[-1].startswith('_')}
    return found


def _names(node, strings=False):
    """Every attribute and name in the code of ``node``; with
    ``strings``, its string constants too."""
    named = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute):
            named.add(sub.attr)
        elif isinstance(sub, ast.Name):
            named.add(sub.id)
        elif strings and isinstance(sub, ast.Constant) and isinstance(
                sub.value, str):
            named.add(sub.value)
    return named


def _tables(tree):
    """``{name: its names and strings}`` of the module-level assignments
    of ``tree``: the tables of cases a test reads or parametrizes over
    (``CASES = {'matmul': (F.matmul, ...)}``, ``_NAMES = ('n_step_rnn',
    ...)``)."""
    return {target.id: _names(node.value, strings=True)
            for node in tree.body if isinstance(node, ast.Assign)
            for target in node.targets if isinstance(target, ast.Name)}


def _named_in(node, tables):
    """Every attribute and name in the code of the test ``node``, the
    strings of its decorators (``parametrize('module', ['lstm'])``), and
    what the module-level ``tables`` it names hold (see
    :func:`_tables`)."""
    named = _names(node)
    for decorator in node.decorator_list:
        named |= _names(decorator, strings=True)
    for name in list(named):
        named |= tables.get(name, set())
    return named


def calling_tests(functions, sources):
    """The tests of ``sources`` (test file path: source text) that use one
    of the public ``functions`` (``F.relu``, ``relu``, ``'relu'`` in a
    decorator, or one of them in a module-level table of cases the test
    names): ``{path: [name of a top-level test function or class]}``."""
    functions = set(functions)
    found = {}
    for path, text in sources.items():
        tree = ast.parse(text)
        tables = _tables(tree)
        names = [node.name for node in tree.body
                 if isinstance(node, (ast.FunctionDef, ast.ClassDef))
                 and node.name.lower().startswith('test')
                 and functions & _named_in(node, tables)]
        if names:
            found[path] = names
    return found


def selection(names, links=False):
    """A ``pytest -k`` expression selecting exactly the records ``names``
    (test ids are ``test_check[name-dtype]``, or for ``links``
    ``test_link[check-name-dtype]``)."""
    anchor = '-{}-' if links else '[{}-'
    return ' or '.join(anchor.format(name) for name in names)


def changed_lines(diff):
    """The removed and added source lines of a unified diff, stripped."""
    removed, added = [], []
    for line in diff.splitlines():
        if line.startswith(('---', '+++')):
            continue
        if line.startswith('-'):
            removed.append(line[1:].strip())
        elif line.startswith('+'):
            added.append(line[1:].strip())
    return removed, added


def outcomes(dump_lines):
    """Tally a ``cosmic-ray dump``: ``(killed, survived, survivors)``.

    Skipped (filtered) and incompetent mutants and pending ones count in
    neither; a survivor is ``(path, line, operator, before, after)``.
    """
    killed = survived = 0
    survivors = []
    for line in dump_lines:
        if not line.strip():
            continue
        item, result = json.loads(line)
        if result is None or result['test_outcome'] not in (
                'killed', 'survived'):
            continue
        if result['test_outcome'] == 'killed':
            killed += 1
            continue
        survived += 1
        mutation = item['mutations'][0]
        before, after = changed_lines(result.get('diff') or '')
        survivors.append((mutation['module_path'], mutation['start_pos'][0],
                          mutation['operator_name'], ' '.join(before),
                          ' '.join(after)))
    return killed, survived, survivors


def score(killed, survived):
    """killed / (killed + survived), None where there were none."""
    total = killed + survived
    return killed / total if total else None


def record_modules(sources):
    """Every conformance record's name and the module of its function:
    for operators (``sub``, ``pow``), the module defining ``def sub``,
    ``class Sub`` or a class named on from it (``class PowVarVar``), else
    the family package."""
    sys.path.insert(0, str(ROOT / 'conformance'))
    import records  # noqa: F401
    from harness.record import RECORDS
    from kusari.autograd import functions as F

    found = {}
    for name, record in RECORDS.items():
        base = name.split(':')[0]
        public = getattr(F, base, None)
        if public is not None:
            found[name] = public.__module__
            continue
        definition = re.compile(
            rf'^(def {base}|class {base.capitalize()}(?:[A-Z]\w*)?)\b',
            re.MULTILINE)
        family = record.func.__module__.split('.')[-1].split('_')[0]
        found[name] = next(
            (module for module, text in sources.items()
             if definition.search(text)), f'{FUNCTIONS_PACKAGE}.{family}')
    return found


def link_record_modules(sources):
    """Every link record's name and the module of ``sources`` (module
    name: source text) defining its class."""
    sys.path.insert(0, str(ROOT / 'conformance'))
    import links  # noqa: F401
    from harness.link_record import LINK_RECORDS

    def defining(name):
        definition = re.compile(rf'^class {name}\b', re.MULTILINE)
        return next((module for module, text in sources.items()
                     if definition.search(text)), None)
    return {name: defining(record.link_name)
            for name, record in LINK_RECORDS.items()}


def package_sources(root):
    """Every module under the directory ``root``: its source text."""
    return {module_name(path): path.read_text()
            for path in sorted(root.rglob('*.py'))}


def function_sources():
    """Every module of kusari.autograd.functions: its source text."""
    return package_sources(AUTOGRAD / 'functions')


def target_files(target):
    """The Python files of a target (a family directory or a file, under
    kusari/autograd or else kusari/links)."""
    for root in (AUTOGRAD, LINKS):
        path = (root / target).resolve()
        if path.is_dir():
            return sorted(path.glob('*.py'))
        if path.suffix == '.py' and path.is_file():
            return [path]
    raise SystemExit(f'mutation: no such file or directory under '
                     f'{AUTOGRAD} or {LINKS}: {target}')


def operator_records(names):
    """The records of ``names`` checking Variable's operators (``sub``:
    ``a - b``): those of no public function."""
    from kusari.autograd import functions as F
    return [name for name in names
            if not hasattr(F, name.partition(':')[0])]


def public_functions(modules):
    """The public functions of kusari.autograd.functions defined in one
    of ``modules`` (module names)."""
    from kusari.autograd import functions as F
    return sorted(name for name, value in vars(F).items()
                  if not name.startswith('_')
                  and getattr(value, '__module__', None) in modules)


def node_classes(modules):
    """The public classes (the function nodes, which Chainer's code may
    build and apply directly) defined in one of ``modules``."""
    import importlib
    return sorted(name for module in modules
                  for name, value in vars(
                      importlib.import_module(module)).items()
                  if isinstance(value, type) and not name.startswith('_')
                  and value.__module__ == module)


def private_name(module):
    """``(name,)`` of a private helper module (``_numpy_blas``), whose
    package tests name it rather than a public function; else ``()``."""
    name = module.rpartition('.')[2]
    return (name,) if name.startswith('_') else ()


def checks(path, links=False):
    """What checks the source file ``path``: the names of the records
    reaching it, the public functions whose package tests run beside
    them, those the file and the modules importing it define (the tests
    of hstack check concat.py; a file no record checks, such as a metric,
    has those alone) or, for a private helper, whose tests name it
    (``_numpy_blas``), with the public classes (nodes) of those modules,
    and the test files run whole (Variable's for its operators' module,
    which no function module imports, and for the modules it imports:
    basic_math's operators)."""
    if links:
        sources = package_sources(LINKS)
        modules = link_record_modules(sources)
    else:
        sources = function_sources()
        modules = record_modules(sources)
    module = module_name(path)
    if module == VARIABLE_METHODS:
        return operator_records(modules), (), (VARIABLE_TESTS,)
    users = importers(module, sources)
    names = covering(modules, module, users)
    if links:
        return names, (), ()
    # Variable's operators and methods are this module's functions too:
    # their tests (comparisons with a scalar, say) run whole.
    tests = (VARIABLE_TESTS,) if VARIABLE_METHODS in users else ()
    return (names, (*public_functions({module, *users}),
                    *node_classes({module, *users}),
                    *private_name(module)), tests)


def _test_command(names, links=False, functions=(), tests=()):
    """The pytest command running the records ``names``; for function
    records, also the kink checks of their functions (whose ids the
    records' expression matches) and the package tests calling them or
    the other ``functions`` (see ``checks``), and the test files
    ``tests`` whole. None where there is nothing to run."""
    beside = {}
    own = {name.partition(':')[0] for name in names}
    if not links:
        beside = calling_tests(own | set(functions), {
            path: path.read_text()
            for path in sorted(PACKAGE_TESTS.glob('test_*.py'))})
    if not (names or beside or tests):
        return None
    test = 'links/test_links.py' if links else 'test_functions.py'
    # The short, pointed tests first: with -x, a mutant they kill (an
    # argument check, most often) stops before the records' few hundred
    # checks, which kill the same mutants either way.
    paths = ([] if links else [KINKS, *beside]) + list(tests)
    if names:
        paths.append(ROOT / 'conformance' / test)
    if names and not links:
        # Parametrized over these records alone, the suite starts in about
        # half the time (the -k expression still picks the kink ids).
        paths += [ARRAY_BACKWARD, '--records=' + ','.join(names)]
    expression = [selection(names, links)] if names else []
    if not links:
        expression += [
            # The kink ids; '[relu:' also picks the records of relu, so
            # only the records' own functions (a file without records:
            # its functions).
            *(f'[{function}:' for function in sorted(own or functions)),
            *sorted({name for found in beside.values() for name in found})]
    # Every test of a file matches its name (a keyword of its items).
    expression += [path.name for path in tests]
    return ' '.join(shlex.quote(str(part)) for part in (
        sys.executable, '-m', 'pytest', *paths,
        # One argument: an expression starting with '-' is no option.
        '-q', '-x', '--no-shrink', '-p', 'no:cacheprovider',
        '-k' + ' or '.join(expression)))


def _cosmic_ray(*arguments, capture=False):
    return subprocess.run([str(BIN / arguments[0]), *arguments[1:]],
                          check=True, cwd=ROOT, text=True,
                          capture_output=capture).stdout


def _config(path, command, timeout, excluded):
    lines = ['[cosmic-ray]',
             f'module-path = {json.dumps(str(path))}',
             f'timeout = {timeout:.1f}',
             'excluded-modules = []',
             f'test-command = {json.dumps(command)}',
             '',
             '[cosmic-ray.distributor]',
             'name = "local"',
             '',
             '[cosmic-ray.filters.operators-filter]',
             'exclude-operators = [',
             *(f'    {json.dumps(re.escape(name) + "$")},'
               for name in excluded),
             ']', '']
    return '\n'.join(lines)


def _pending(dump_lines):
    return sum(1 for line in dump_lines
               if line.strip() and json.loads(line)[1] is None)


def _session(config, session, path, command, timeout, excluded):
    """A new cosmic-ray session of the kept mutants; its dump's lines."""
    config.write_text(_config(path.relative_to(ROOT), command, timeout,
                              excluded))
    session.unlink(missing_ok=True)
    _cosmic_ray('cosmic-ray', 'init', str(config), str(session))
    _cosmic_ray('cr-filter-operators', str(session), str(config))
    return _cosmic_ray('cosmic-ray', 'dump', str(session),
                       capture=True).splitlines()


def _reopen_survivors(session):
    """Forget the results of the mutants that survived in ``session``, so
    that ``cosmic-ray exec`` runs them again; the killed keep theirs."""
    with contextlib.closing(sqlite3.connect(session)) as db, db:
        db.execute("DELETE FROM work_results WHERE test_outcome = "
                   "'SURVIVED'")


def _sample(session, fraction, seed):
    """Keep ``fraction`` of the pending mutants of ``session`` (at least
    one), drawn with ``seed`` from their order in the file; the others are
    skipped, as filtered ones are."""
    with contextlib.closing(sqlite3.connect(session)) as db, db:
        pending = [row[0] for row in db.execute(
            'SELECT s.job_id FROM mutation_specs AS s LEFT JOIN work_results '
            'AS r ON r.job_id = s.job_id WHERE r.job_id IS NULL ORDER BY '
            's.start_pos_row, s.start_pos_col, s.operator_name, '
            's.occurrence')]
        if not pending:
            return
        kept = set(random.Random(seed).sample(
            pending, math.ceil(fraction * len(pending))))
        db.executemany(
            "INSERT INTO work_results (worker_outcome, output, job_id) "
            "VALUES ('SKIPPED', 'Not in the sample', ?)",
            [(job,) for job in pending if job not in kept])


def _run_unmutated(command):
    """Run ``command`` on the unmutated sources, leaving the bytecode of
    every module it imports (and pytest's rewritten tests) in __pycache__.

    cosmic-ray runs each mutant with PYTHONDONTWRITEBYTECODE, so without
    these caches every run compiled the whole suite again: half of a
    mutant's startup. The mutated file's cache is stale by its timestamp,
    so that file alone is compiled anew."""
    environment = {name: value for name, value in os.environ.items()
                   if name != 'PYTHONDONTWRITEBYTECODE'}
    return subprocess.run(shlex.split(command), cwd=ROOT, text=True,
                          capture_output=True, env=environment)


def mutate_file(path, command, excluded, links=False, survivors=False,
                sample=None, seed=0):
    """Run every kept mutant of one file (with ``survivors``, only those
    that survived its last session, against the tests as they are now:
    they have only grown since; with ``sample``, that fraction of them,
    drawn with ``seed``) against the test ``command`` (of
    :func:`_test_command`); return the dump's lines."""
    root = LINKS if links else AUTOGRAD
    work = WORK / root.name / path.relative_to(root).with_suffix('')
    work.mkdir(parents=True, exist_ok=True)
    config = work / 'cosmic-ray.toml'
    session = work / 'session.sqlite'
    # The source a session's mutants were made from.
    source = work / 'source.sha256'
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if survivors:
        if not (session.exists() and source.exists()
                and source.read_text() == digest):
            raise SystemExit(f'mutation: --survivors needs the last session '
                             f'of {path}, made from its present source')
        _reopen_survivors(session)
        dump = _cosmic_ray('cosmic-ray', 'dump', str(session),
                           capture=True).splitlines()
    else:
        dump = _session(config, session, path, command, 0, excluded)
        source.write_text(digest)
    if not _pending(dump):
        return dump
    start = time.monotonic()
    run = _run_unmutated(command)
    if run.returncode != 0:
        raise SystemExit(f'mutation: the records of {path} fail '
                         f'unmutated:\n{run.stdout[-2000:]}')
    # A mutant slower than this loops: it counts as killed.
    timeout = 3 * (time.monotonic() - start) + 10
    if survivors:
        config.write_text(_config(path.relative_to(ROOT), command, timeout,
                                  excluded))
    else:
        _session(config, session, path, command, timeout, excluded)
        if sample is not None:
            _sample(session, sample, seed)
    original = path.read_bytes()
    try:
        _cosmic_ray('cosmic-ray', 'exec', str(config), str(session))
    finally:
        # Interrupted, cosmic-ray may leave its mutant on disk.
        if path.read_bytes() != original:
            path.write_bytes(original)
    return _cosmic_ray('cosmic-ray', 'dump', str(session),
                       capture=True).splitlines()


def interval(killed, survived, z=1.96):
    """The Wilson interval of the score of a random sample of mutants
    (95 % by default); None where there were none."""
    total = killed + survived
    if not total:
        return None
    p = killed / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)
                         ) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def _sample_fraction(text):
    value = float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f'a fraction in (0, 1]: {text}')
    return value


def _percent(value):
    return '-' if value is None else f'{100 * value:.0f}%'


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('targets', nargs='+',
                        help='a family directory or a file under '
                             'kusari/autograd (functions/activation) or '
                             'kusari/links (layers/connection/linear.py)')
    parser.add_argument('--survivors', action='store_true',
                        help="run again only the mutants that survived each "
                             "file's last session (after the records grew)")
    parser.add_argument('--sample', type=_sample_fraction, metavar='FRACTION',
                        help="run that fraction of each file's mutants, "
                             "drawn at random: an estimated score")
    parser.add_argument('--seed', type=int, default=0,
                        help='the seed of the --sample draw (default 0)')
    arguments = parser.parse_args(argv)
    # Terminated, restore the file being mutated (see mutate_file).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    operators = _cosmic_ray('cosmic-ray', 'operators',
                            capture=True).split()
    excluded = [name for name in operators if not kept(name)]
    for target in arguments.targets:
        start = time.monotonic()
        total_killed = total_survived = 0
        all_survivors = []
        print(f'== {target}')
        for path in target_files(target):
            links = path.is_relative_to(LINKS)
            names, functions, tests = checks(path, links)
            command = _test_command(names, links, functions, tests)
            if command is None:
                print(f'{path.name}: no record or package test checks it, '
                      f'skipped')
                continue
            file_start = time.monotonic()
            killed, survived, survivors = outcomes(
                mutate_file(path, command, excluded, links,
                            arguments.survivors, arguments.sample,
                            arguments.seed))
            total_killed += killed
            total_survived += survived
            all_survivors += survivors
            print(f'{path.name}: {killed} killed, {survived} survived '
                  f'({_percent(score(killed, survived))}), '
                  f'{time.monotonic() - file_start:.0f} s, '
                  f'records: {" ".join(names) or "none"}'
                  f'{"; package tests of " if functions else ""}'
                  f'{" ".join(functions)}', flush=True)
        overall = score(total_killed, total_survived)
        estimate = ''
        if arguments.sample is not None and overall is not None:
            low, high = interval(total_killed, total_survived)
            estimate = (f', a sample of {arguments.sample:g}: 95 % interval '
                        f'{_percent(low)} to {_percent(high)}')
        print(f'{target}: score {_percent(overall)} ({total_killed} killed '
              f'/ {total_killed + total_survived}){estimate}, '
              f'{time.monotonic() - start:.0f} s')
        for path, line, operator, before, after in all_survivors:
            print(f'  survived {Path(path).name}:{line} '
                  f'{operator.split("/")[-1]}: {before}  ->  {after}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
