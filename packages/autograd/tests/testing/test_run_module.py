import subprocess
import sys
import textwrap

from kusari.autograd import testing


def test_imported_module_runs_nothing():
    assert testing.run_module('tests.test_something', __file__) is None


def test_script_runs_its_own_tests_with_pytest(tmp_path):
    script = tmp_path / 'test_script.py'
    script.write_text(textwrap.dedent('''
        from kusari.autograd import testing

        def test_passes():
            pass

        def test_fails():
            assert False, 'failed on purpose'

        testing.run_module(__name__, __file__)
    '''))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert 'test_script.py::test_passes PASSED' in done.stdout
    assert 'failed on purpose' in done.stdout
