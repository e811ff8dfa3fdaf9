"""The evaluation functions have no records: they are metrics, computed
without a graph (as in Chainer their results are not differentiable).
Their values are tested against NumPy references in
packages/autograd/tests/functions/test_evaluation.py."""
from harness.record import no_spec

_REASON = ('a metric computed without a graph (not differentiable, as in '
           'Chainer); values are tested in tests/functions/'
           'test_evaluation.py')

for _name in ('accuracy', 'binary_accuracy', 'classification_summary',
              'precision', 'recall', 'f1_score', 'r2_score'):
    no_spec(_name, _REASON)
