"""Errors raised while a link runs, or while one is loaded, name the path
of the link (or parameter) in the model, as namedparams writes it."""
import numpy
import pytest

from kusari.autograd import functions as F
from kusari.autograd.utils.type_check import InvalidType
from kusari.links import Chain, Link, LinkHook
from links_fakes import Model

X = numpy.ones((2, 3), numpy.float32)
NOTE = '(raised in the link /predictor/l1, a Linear)'
# The public function the (fake) Linear called, as type_check notes it.
CALLER = '(raised in matmul())'


def _raised(model, x):
    with pytest.raises(Exception) as info:
        model(x)
    return info.value


def test_forward_error_names_the_link_path_and_keeps_type_and_message():
    model = Model()
    error = _raised(model, numpy.ones((2, 5), numpy.float32))
    assert isinstance(error, InvalidType)
    assert str(error).endswith('Actual: 5 != 3')
    assert error.__notes__ == [CALLER, NOTE]


def test_the_note_is_made_once_per_raise():
    model = Model()
    first = _raised(model, numpy.ones((2, 5), numpy.float32))
    second = _raised(model, numpy.ones((2, 5), numpy.float32))
    assert first is not second and second.__notes__ == [CALLER, NOTE]


def test_error_of_the_root_itself_has_no_note():
    class Failing(Link):
        def forward(self, x):
            raise ValueError('bad x')

    error = _raised(Failing(), X)
    assert str(error) == 'bad x'
    assert not hasattr(error, '__notes__')


def test_error_under_link_hooks_names_the_path():
    model = Model()
    model.predictor.l1.add_hook(LinkHook())
    error = _raised(model, numpy.ones((2, 5), numpy.float32))
    assert error.__notes__ == [CALLER, NOTE]


def test_without_add_note_the_message_carries_the_path():
    class OldStyleError(Exception):
        # As on Python 3.10, where exceptions have no add_note.
        @property
        def add_note(self):
            raise AttributeError('add_note')

    class Failing(Link):
        def forward(self):
            raise OldStyleError('inner failure')

    class Calling(Chain):
        """Calls its only child."""

        def __init__(self, **child):
            super().__init__(**child)
            self.child, = child.values()

        def forward(self):
            return self.child()

    with pytest.raises(OldStyleError) as info:
        Calling(inner=Calling(failing=Failing()))()
    assert info.value.args == (
        'inner failure\n(raised in the link /inner/failing, a Failing)',)


def test_loading_a_wrong_shape_names_the_parameter_path(tmp_path):
    serializers = pytest.importorskip('kusari.serializers')
    path = tmp_path / 'model.npz'
    saved = Model()
    saved.predictor.l1.W.array = numpy.zeros((5, 3), numpy.float32)
    serializers.save_npz(path, saved)
    with pytest.raises(ValueError, match=r"/predictor/l1/W .*\(5, 3\)"):
        serializers.load_npz(path, Model())


class _ReadsItsInput(Link):
    def forward(self, x, state=None):
        return x.reshape(x.shape[0], -1)


@pytest.mark.parametrize('value, type_name', [
    (None, 'NoneType'), ([1.0, 2.0], 'list'), (1.0, 'float')])
def test_a_link_given_no_array_names_itself_and_the_input(value, type_name):
    error = _raised(_ReadsItsInput(), value)
    assert isinstance(error, TypeError)
    assert str(error) == (f'_ReadsItsInput: input 0 must be a Variable or '
                          f'an array, got {type_name}')
    assert isinstance(error.__cause__, AttributeError)


def test_an_inner_functions_bad_input_is_not_blamed_on_the_link():
    # state=None is valid here; the None the link passes on is F.relu's.
    class PassesNone(Link):
        def forward(self, x, state=None):
            return F.relu(state)

    error = _raised(PassesNone(), X)
    assert str(error) == ('ReLU: input 0 must be a Variable or an array, '
                          'got NoneType')
