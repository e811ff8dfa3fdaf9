import os
import sys

# With --import-mode=importlib no test directory is on sys.path; the tests
# share _jobs.py and read the check names from _checks.py.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
