"""The pure parts of the mutation-testing driver (mutation.py)."""
import json
import sys

import pytest

import mutation

F = 'kusari.autograd.functions'
MODULES = {
    'relu': f'{F}.activation.relu',
    'relu6': f'{F}.activation.clipped_relu',
    'clipped_relu': f'{F}.activation.clipped_relu',
    'dropout': f'{F}.noise.dropout',
    'sub': f'{F}.math',
    'exp': f'{F}.math.exponential',
}


@pytest.mark.parametrize('operator', [
    'core/ReplaceBinaryOperator_Add_Sub',
    'core/ReplaceBinaryOperator_Mul_Div',
    'core/ReplaceBinaryOperator_FloorDiv_Div',
    'core/ReplaceComparisonOperator_Lt_LtE',
    'core/ReplaceComparisonOperator_Is_IsNot',
    'core/ReplaceUnaryOperator_USub_UAdd',
    'core/NumberReplacer',
    'core/AddNot',
    'core/ZeroIterationForLoop',
])
def test_kept_operators(operator):
    assert mutation.kept(operator)


@pytest.mark.parametrize('operator', [
    'core/ReplaceBinaryOperator_Add_BitXor',
    'core/ReplaceBinaryOperator_Mul_RShift',
    'core/ReplaceBinaryOperator_Add_FloorDiv',
    'core/ReplaceComparisonOperator_Lt_Is',
    'core/ReplaceUnaryOperator_USub_Invert',
    'core/ExceptionReplacer',
    'core/RemoveDecorator',
    'core/VariableInserter',
    'core/NumberReplacerX',
])
def test_dropped_operators(operator):
    assert not mutation.kept(operator)


def test_module_name():
    base = mutation.SOURCE / 'kusari' / 'autograd' / 'functions'
    assert mutation.module_name(base / 'activation' / 'relu.py') == (
        f'{F}.activation.relu')
    assert mutation.module_name(base / 'noise' / '__init__.py') == (
        f'{F}.noise')


def test_covering_a_public_module_takes_its_functions_records():
    assert mutation.covering(MODULES, f'{F}.activation.clipped_relu') == [
        'relu6', 'clipped_relu']
    assert mutation.covering(MODULES, f'{F}.activation.relu') == ['relu']


def test_covering_a_helper_takes_the_family():
    family = ['relu', 'relu6', 'clipped_relu']
    assert mutation.covering(MODULES, f'{F}.activation._grad_nodes') == (
        family)
    assert mutation.covering(MODULES, f'{F}.activation') == family
    # A public module whose functions have no record: none.
    assert mutation.covering(MODULES, f'{F}.noise.zoneout') == []
    # Operator records name the family package itself.
    assert mutation.covering(MODULES, f'{F}.math.basic_math') == ['sub']


def test_covering_does_not_take_a_family_by_prefix():
    modules = {'a': f'{F}.math.sum', 'b': f'{F}.math_extra.x'}
    assert mutation.covering(modules, f'{F}.math._reduction') == ['a']


def test_selection_anchors_each_name_to_its_test_id():
    expression = mutation.selection(['relu', 'rrelu:given_r'])
    assert expression == '[relu- or [rrelu:given_r-'


def test_selection_of_link_records_anchors_to_their_test_ids():
    # test ids are test_link[check-name-dtype]
    assert mutation.selection(['Linear', 'Linear:nobias'], links=True) == (
        '-Linear- or -Linear:nobias-')


def test_targets_resolve_under_autograd_then_links():
    relu, = mutation.target_files('functions/activation/relu.py')
    assert relu == mutation.AUTOGRAD / 'functions' / 'activation' / 'relu.py'
    linear = mutation.module_name(next(
        path for path in mutation.LINKS.rglob('linear.py')))
    assert linear.startswith('kusari.links.') and linear.endswith('.linear')
    with pytest.raises(SystemExit, match='no such file'):
        mutation.target_files('functions/no_such_family')


def test_link_records_map_to_the_module_of_their_class():
    modules = mutation.link_record_modules(
        mutation.package_sources(mutation.LINKS))
    assert modules['Linear'] == modules['Linear:nobias']
    assert modules['Linear'].endswith('.connection.linear')


def test_changed_lines():
    diff = ('--- mutation diff ---\n'
            '--- arelu.py\n'
            '+++ brelu.py\n'
            '@@ -11,7 +11,7 @@\n'
            '     def backward(self):\n'
            '-        return y > 0\n'
            '+        return y >= 0\n')
    assert mutation.changed_lines(diff) == (['return y > 0'],
                                            ['return y >= 0'])


def _line(outcome, line=3, operator='core/NumberReplacer', diff=''):
    item = {'job_id': 'j', 'mutations': [
        {'module_path': 'relu.py', 'operator_name': operator,
         'occurrence': 0, 'start_pos': [line, 4], 'end_pos': [line, 5]}]}
    result = None if outcome is None else {
        'worker_outcome': 'skipped' if outcome == 'skipped' else 'normal',
        'test_outcome': None if outcome == 'skipped' else outcome,
        'output': '', 'diff': diff}
    return json.dumps([item, result])


def test_outcomes_tally_killed_and_survived_only():
    lines = [_line('killed'), _line('killed'), _line('incompetent'),
             _line('skipped'), _line(None), '',
             _line('survived', line=7, diff='-x = 0\n+x = 1\n')]
    killed, survived, survivors = mutation.outcomes(lines)
    assert (killed, survived) == (2, 1)
    assert survivors == [('relu.py', 7, 'core/NumberReplacer', 'x = 0',
                          'x = 1')]


def test_score():
    assert mutation.score(3, 1) == 0.75
    assert mutation.score(0, 0) is None


def test_covering_a_helper_takes_its_importers_records():
    importers = {f'{F}.activation.relu', f'{F}.noise.dropout'}
    assert mutation.covering(MODULES, f'{F}.activation._grad_nodes',
                             importers) == ['relu', 'dropout']


def test_importers_follow_private_modules_only():
    sources = {
        f'{F}.a._helper': 'import numpy\n',
        f'{F}.a.one': f'from {F}.a._helper import thing\n',
        # Followed through private modules only.
        f'{F}.a.two': f'from {F}.a.one import One\n',
        f'{F}.a._mid': f'from {F}.a._helper import x\n',
        f'{F}.a.nine': f'from {F}.a._mid import x\n',
        f'{F}.a.three': f'import {F}.a._helper_more\n',
        f'{F}.b.four': 'x = 1  # from kusari.autograd.functions.a._helper\n',
        f'{F}.a.five': f'from {F}.a._helper.inner import x\n',
        # A package only re-exports: not followed to its importers.
        f'{F}.a': f'from {F}.a.one import One\n',
        f'{F}.c.six': f'from {F}.a import One\n',
        f'{F}.a.seven': f'from {F}.a import (_other,\n    _helper)\n',
        f'{F}.a.eight': f'from {F}.a import _helper_two\n',
    }
    assert mutation.importers(f'{F}.a._helper', sources) == {
        f'{F}.a.one', f'{F}.a._mid', f'{F}.a.seven', f'{F}.a.nine'}


def test_test_command_passes_the_selection_as_one_argument():
    # ``-k -PReLU-`` alone would read as an unknown option.
    command = mutation._test_command(['PReLU'], links=True)
    assert command.endswith(' -k-PReLU-')
    assert 'links/test_links.py' in command


def test_calling_tests_take_the_tests_that_use_a_function():
    sources = {'test_a.py': (
        "import pytest\n"
        "def test_uses_it():\n"
        "    F.relu(x)\n"
        "def test_other():\n"
        "    F.tanh(x)\n"
        "@pytest.mark.parametrize('name', ['relu'])\n"
        "def test_by_name(name):\n"
        "    getattr(F, name)(x)\n"
        "def test_string_in_body():\n"
        "    assert kind == 'relu'\n"
        "class TestReLU:\n"
        "    def test_method(self):\n"
        "        relu(x)\n"
        "def helper():\n"
        "    F.relu(x)\n"
        "NAMES = ('relu', 'elu')\n"
        "CASES = {'relu': 1, 'tanh': 2}\n"
        "OTHER = ('tanh',)\n"
        "@pytest.mark.parametrize('name', NAMES)\n"
        "def test_by_a_constant(name):\n"
        "    getattr(F, name)(x)\n"
        "@pytest.mark.parametrize('name', sorted(CASES))\n"
        "def test_by_a_key(name):\n"
        "    CASES[name](x)\n"
        "@pytest.mark.parametrize('name', OTHER)\n"
        "def test_by_another_constant(name):\n"
        "    getattr(F, name)(x)\n"),
        'test_b.py': "def test_none():\n    F.tanh(x)\n"}
    assert mutation.calling_tests({'relu'}, sources) == {
        'test_a.py': ['test_uses_it', 'test_by_name', 'TestReLU',
                      'test_by_a_constant', 'test_by_a_key']}


def test_calling_tests_read_the_module_level_tables_a_test_reads():
    sources = {'test_a.py': (
        "import pytest\n"
        "CASES = {'relu': (F.relu, (2, 3))}\n"
        "OTHER = {'tanh': F.tanh}\n"
        "@pytest.mark.parametrize('name', sorted(CASES))\n"
        "def test_table(name):\n"
        "    CASES[name][0](x)\n"
        "def test_other_table():\n"
        "    OTHER['tanh'](x)\n")}
    assert mutation.calling_tests({'relu'}, sources) == {
        'test_a.py': ['test_table']}


def test_operator_records_map_to_the_module_of_their_node_classes():
    modules = mutation.record_modules(mutation.function_sources())
    assert modules['pow'] == f'{F}.math.basic_math'
    assert modules['pow:const_var'] == f'{F}.math.basic_math'
    assert modules['sub'] == f'{F}.math.basic_math'


def test_function_files_also_run_their_package_tests_and_kinks():
    command = mutation._test_command(['clipped_relu', 'relu6'])
    assert str(mutation.KINKS) in command
    assert str(mutation.ARRAY_BACKWARD) in command
    assert 'test_activation_options.py' in command
    assert 'test_clipped_relu_bound_and_relu6' in command
    assert '[relu6: or' in command
    assert ' --records=clipped_relu,relu6 ' in command
    links = mutation._test_command(['Linear'], links=True)
    # A failure found is all a mutant's run needs: no time on shrinking it.
    assert ' --no-shrink ' in command and ' --no-shrink ' in links
    # The quick package tests and kinks run before the records.
    assert command.index('test_activation_options.py') < command.index(
        'test_functions.py')
    assert command.index(str(mutation.KINKS)) < command.index(
        'test_functions.py')
    assert str(mutation.KINKS) not in links
    assert '--records' not in links
    assert str(mutation.ARRAY_BACKWARD) not in links


def test_a_private_helper_also_runs_the_package_tests_naming_it():
    assert mutation.private_name(f'{F}.connection._numpy_blas') == (
        '_numpy_blas',)
    assert mutation.private_name(f'{F}.connection.linear') == ()
    assert mutation.private_name(f'{F}.connection') == ()
    command = mutation._test_command(['linear'], functions=['_numpy_blas'])
    assert 'test_connection_numpy_blas.py' in command
    assert 'test_gemm_add_adds_the_product_in_place' in command


def test_a_file_without_records_runs_the_package_tests_of_its_functions():
    assert mutation.public_functions({f'{F}.evaluation.accuracy'}) == [
        'accuracy']
    command = mutation._test_command([], functions=['accuracy'])
    assert 'test_evaluation.py' in command
    assert 'test_functions.py' not in command
    assert str(mutation.ARRAY_BACKWARD) not in command
    assert mutation._test_command([], functions=['no_such_function']) is None
    assert mutation._test_command([], links=True) is None


def test_the_tests_of_importing_functions_check_a_file_too():
    names, functions, tests = mutation.checks(
        mutation.AUTOGRAD / 'functions' / 'array' / 'concat.py')
    assert tests == ()
    assert names == ['concat']
    assert {'concat', 'hstack', 'vstack', 'dstack'} <= set(functions)
    command = mutation._test_command(names, functions=functions)
    assert 'test_array_join_split.py' in command
    # hstack's package tests, but not hstack's records (or kinks).
    assert '[hstack:' not in command
    assert '[concat:' in command


def test_the_tests_of_a_file_s_nodes_check_it_too():
    names, functions, tests = mutation.checks(
        mutation.AUTOGRAD / 'functions' / 'loss' / 'ctc.py')
    assert 'ConnectionistTemporalClassification' in functions
    assert mutation.node_classes({f'{F}.array._concat_split'}) == [
        'Concat', 'SplitAxis']
    command = mutation._test_command(names, functions=functions)
    assert 'test_ctc_node_checks_its_inputs' in command


def test_variable_methods_run_the_operator_records_and_variable_tests():
    assert mutation.operator_records(
        ['relu', 'sub', 'pow:var_const', 'exp']) == ['sub', 'pow:var_const']
    command = mutation._test_command(
        ['sub'], tests=[mutation.VARIABLE_TESTS])
    assert str(mutation.VARIABLE_TESTS) in command
    assert " '-k[sub- or [sub: or " in command
    assert command.endswith(" or test_variable.py'")
    assert mutation._test_command(
        [], tests=[mutation.VARIABLE_TESTS]).endswith(' -ktest_variable.py')


def test_modules_variable_s_methods_import_run_the_variable_tests():
    # basic_math defines the comparisons Variable's operators are.
    basic_math = mutation.AUTOGRAD / 'functions' / 'math' / 'basic_math.py'
    assert mutation.checks(basic_math)[2] == (mutation.VARIABLE_TESTS,)
    relu = mutation.AUTOGRAD / 'functions' / 'activation' / 'relu.py'
    assert mutation.checks(relu)[2] == ()


def test_reopen_survivors_forgets_only_the_survivors(tmp_path):
    import sqlite3
    session = tmp_path / 'session.sqlite'
    with sqlite3.connect(session) as db:
        db.execute('CREATE TABLE work_results (job_id, test_outcome)')
        db.executemany('INSERT INTO work_results VALUES (?, ?)', [
            ('a', 'KILLED'), ('b', 'SURVIVED'), ('c', None),
            ('d', 'SURVIVED')])
    mutation._reopen_survivors(session)
    with sqlite3.connect(session) as db:
        left = db.execute('SELECT job_id FROM work_results ORDER BY job_id')
        assert [row[0] for row in left] == ['a', 'c']


def test_survivors_need_the_session_of_the_present_source(tmp_path,
                                                          monkeypatch):
    monkeypatch.setattr(mutation, 'WORK', tmp_path)
    relu = mutation.AUTOGRAD / 'functions' / 'activation' / 'relu.py'
    with pytest.raises(SystemExit, match='--survivors needs'):
        mutation.mutate_file(relu, 'true', [], survivors=True)
    # A session without the digest of its source (made before it was kept).
    work = tmp_path / 'autograd' / 'functions' / 'activation' / 'relu'
    work.mkdir(parents=True, exist_ok=True)
    (work / 'session.sqlite').touch()
    with pytest.raises(SystemExit, match='--survivors needs'):
        mutation.mutate_file(relu, 'true', [], survivors=True)
    (work / 'source.sha256').write_text('another source')
    with pytest.raises(SystemExit, match='--survivors needs'):
        mutation.mutate_file(relu, 'true', [], survivors=True)


def _fake_session(path, jobs, done=()):
    """A session database with the columns that _sample reads."""
    import sqlite3
    with sqlite3.connect(path) as db:
        db.execute('CREATE TABLE mutation_specs (job_id, start_pos_row, '
                   'start_pos_col, operator_name, occurrence)')
        db.execute('CREATE TABLE work_results (worker_outcome, output, '
                   'test_outcome, job_id)')
        db.executemany('INSERT INTO mutation_specs VALUES (?, ?, 0, ?, 0)',
                       [(job, row, 'core/AddNot') for job, row in jobs])
        db.executemany("INSERT INTO work_results VALUES ('SKIPPED', "
                       "'Filtered operator', NULL, ?)", [(j,) for j in done])


def _pending_jobs(path):
    import sqlite3
    with sqlite3.connect(path) as db:
        return sorted(row[0] for row in db.execute(
            'SELECT s.job_id FROM mutation_specs AS s LEFT JOIN '
            'work_results AS r ON r.job_id = s.job_id '
            'WHERE r.job_id IS NULL'))


def test_sample_keeps_a_fraction_of_the_pending_mutants(tmp_path):
    jobs = [(f'job{row}', row) for row in range(40)]
    session = tmp_path / 'session.sqlite'
    _fake_session(session, jobs, done=['job0', 'job1'])
    mutation._sample(session, 0.25, seed=3)
    kept = _pending_jobs(session)
    # A quarter of the 38 pending, rounded up; the filtered stay filtered.
    assert len(kept) == 10
    assert not {'job0', 'job1'} & set(kept)


def test_sample_draws_by_position_not_by_job_id(tmp_path):
    # cosmic-ray's job ids are new random ones at each init: the same seed
    # must draw the same mutants of the same file.
    first, second = tmp_path / 'a.sqlite', tmp_path / 'b.sqlite'
    _fake_session(first, [(f'a{row}', row) for row in range(30)])
    _fake_session(second, [(f'{99 - row:02}', row) for row in range(30)])
    mutation._sample(first, 0.2, seed=7)
    mutation._sample(second, 0.2, seed=7)
    rows = sorted(int(job[1:]) for job in _pending_jobs(first))
    assert rows == sorted(99 - int(job) for job in _pending_jobs(second))
    other = tmp_path / 'c.sqlite'
    _fake_session(other, [(f'a{row}', row) for row in range(30)])
    mutation._sample(other, 0.2, seed=8)
    assert _pending_jobs(other) != _pending_jobs(first)


def test_sample_keeps_at_least_one(tmp_path):
    session = tmp_path / 'session.sqlite'
    _fake_session(session, [('only', 1), ('other', 2)])
    mutation._sample(session, 0.01, seed=0)
    assert len(_pending_jobs(session)) == 1


def test_interval():
    assert mutation.interval(0, 0) is None
    low, high = mutation.interval(90, 10)
    assert 0.82 < low < 0.83 and 0.94 < high < 0.95
    low, high = mutation.interval(20, 0)
    assert high == 1.0 and 0.83 < low < 0.84


@pytest.mark.parametrize('text', ['0', '-0.1', '1.5', 'nan'])
def test_sample_must_be_a_fraction(text, capsys):
    with pytest.raises(SystemExit):
        mutation.main(['functions/activation', '--sample', text])
    assert 'a fraction in (0, 1]' in capsys.readouterr().err


def test_the_unmutated_run_leaves_bytecode_for_the_mutants(tmp_path,
                                                           monkeypatch):
    monkeypatch.setenv('PYTHONDONTWRITEBYTECODE', '1')
    (tmp_path / 'probe.py').write_text('VALUE = 1\n')
    command = (f'{sys.executable} -c "import sys; sys.path.insert(0, '
               f'{str(tmp_path)!r}); import probe"')
    assert mutation._run_unmutated(command).returncode == 0
    assert list((tmp_path / '__pycache__').glob('probe.*.pyc'))
