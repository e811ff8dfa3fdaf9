import subprocess
import sys
import textwrap


def test_importing_testing_without_pytest_says_what_to_install():
    # A None in sys.modules makes `import pytest` fail as if absent.
    script = textwrap.dedent('''
        import sys
        sys.modules['pytest'] = None
        try:
            import kusari.autograd.testing
        except ModuleNotFoundError as error:
            print(error.name)
            print(error)
        ''')
    done = subprocess.run([sys.executable, '-c', script],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    name, message = done.stdout.splitlines()
    assert name == 'pytest'
    assert message.startswith('kusari.autograd.testing (chainer.testing) '
                              'builds on pytest, which is not installed')
    assert '"packages/autograd[testing]"' in message
