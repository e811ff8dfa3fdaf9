"""Extension and make_extension give the attributes the trainer reads."""
import pytest

from kusari.training import extension
from kusari.training import Extension, make_extension


def test_extension_defaults():
    class Mine(Extension):
        def __call__(self, trainer):
            pass

    mine = Mine()
    assert mine.trigger == (1, 'iteration')
    assert mine.priority == extension.PRIORITY_READER
    assert mine.default_name == 'Mine'
    assert mine.name is None
    assert mine.initialize(None) is None
    assert mine.finalize() is None
    assert mine.on_error(None, None, None) is None
    with pytest.raises(NotImplementedError, match='Extension must'):
        Extension()(None)


def test_priorities_order_writers_first():
    assert (extension.PRIORITY_WRITER > extension.PRIORITY_EDITOR
            > extension.PRIORITY_READER)


def test_make_extension_sets_attributes():
    def finalizer():
        pass

    def initializer(trainer):
        pass

    def on_error(trainer, exc, tb):
        pass

    @make_extension(trigger=(2, 'epoch'), default_name='lr_drop',
                    priority=extension.PRIORITY_WRITER, finalizer=finalizer,
                    initializer=initializer, on_error=on_error)
    def drop(trainer):
        pass

    assert drop.trigger == (2, 'epoch')
    assert drop.default_name == 'lr_drop'
    assert drop.priority == extension.PRIORITY_WRITER
    assert drop.finalize is finalizer
    assert drop.initialize is initializer
    assert drop.on_error is on_error


def test_make_extension_defaults():
    @make_extension()
    def plain(trainer):
        pass

    assert plain.trigger == (1, 'iteration')
    assert plain.default_name == 'plain'
    assert plain.priority == extension.PRIORITY_READER
    assert plain.finalize is None and plain.initialize is None


def test_make_extension_bad_arguments():
    with pytest.raises(ValueError, match='invoke_before_training was '
                                         'removed'):
        make_extension(invoke_before_training=True)
    with pytest.raises(TypeError, match='unexpected keyword'):
        make_extension(trigers=(1, 'epoch'))
    with pytest.raises(TypeError, match='finalizer must be callable'):
        make_extension(finalizer=3)
    with pytest.raises(TypeError, match='expected a callable'):
        make_extension()(5)
