"""The verdict of the Chainer-suite session: which regressions are listed
where, and the open list that only shrinks."""
import chainer_suite

TABLE = '''\
Some prose with a `code span` | and a bar.

| test ids | reason |
| --- | --- |
| `tests/chainer_tests/test_a.py::TestA::*` | Chainer's bug |
| `tests/chainer_tests/test_b.py::TestB::test_x` | private name |
'''


def test_known_differences_are_the_first_cells_of_table_rows():
    assert list(chainer_suite.known_differences(TABLE)) == [
        'tests/chainer_tests/test_a.py::TestA::*',
        'tests/chainer_tests/test_b.py::TestB::test_x']


def test_patterns_match_exact_ids_and_globs():
    patterns = chainer_suite.Patterns(
        chainer_suite.known_differences(TABLE))
    assert patterns.match('tests/chainer_tests/test_a.py::TestA::test_y')
    assert patterns.match('tests/chainer_tests/test_b.py::TestB::test_x')
    assert not patterns.match('tests/chainer_tests/test_b.py::TestB::test_')
    assert not patterns.match('tests/chainer_tests/test_c.py::TestA::t')


def test_judge_sorts_regressions_known_before_open():
    known = chainer_suite.Patterns(['a::*'])
    gaps = chainer_suite.Patterns(['a::1', 'b::2'])
    verdict = chainer_suite.judge(
        [('core', 'a::1', ''), ('core', 'b::2', ''), ('io', 'c::3', 'E')],
        known, gaps)
    assert [r[1] for r in verdict['known']] == ['a::1']
    assert [r[1] for r in verdict['open']] == ['b::2']
    assert verdict['unexplained'] == [('io', 'c::3', 'E')]


def test_open_list_round_trips_grouped_by_area(tmp_path):
    path = tmp_path / 'open.txt'
    chainer_suite.write_open(path, [('io', 'b::2', ''), ('core', 'a::1', ''),
                                    ('io', 'a::9', '')])
    text = path.read_text()
    assert sorted(chainer_suite.open_gaps(text)) == ['a::1', 'a::9', 'b::2']
    assert text.index('# core: 1') < text.index('# io: 2')
