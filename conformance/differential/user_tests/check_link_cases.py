"""User-style ``LinkTestCase`` and ``LinkInitializersTestCase`` tests on
``L.Linear``, serializer round trips and the mock trainer."""
import os
import tempfile
import unittest
from unittest import mock

import numpy

import chainer
from chainer import initializers
from chainer import links as L
from chainer import testing
from chainer import training
from chainer.training import extensions

import _record


class _LinearParts(object):

    param_names = ('W', 'b')

    def generate_params(self):
        W = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
        b = numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32)
        return W, b

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float32),

    def create_link(self, initializers):
        W, b = initializers
        return L.Linear(2, 3, initialW=W, initial_bias=b)

    def forward(self, link, inputs, device):
        x, = inputs
        return link(x),

    def forward_expected(self, link, inputs):
        x, = inputs
        return x.dot(link.W.array.T) + link.b.array,


@testing.inject_backend_tests(None, [{}])
class TestLinearLink(_LinearParts, testing.LinkTestCase):
    pass


@testing.inject_backend_tests(None, [{}])
class TestLinearLinkWrongExpectation(_LinearParts, testing.LinkTestCase):

    skip_backward_test = True

    def forward_expected(self, link, inputs):
        x, = inputs
        return x.dot(link.W.array.T),


@testing.inject_backend_tests(None, [{}])
class TestLinearLinkWrongParamNames(_LinearParts, testing.LinkTestCase):

    param_names = ('W', 'c')


@testing.inject_backend_tests(None, [{}])
class TestLinearInitializers(_LinearParts, testing.LinkInitializersTestCase):

    def get_initializers(self):
        return ([initializers.Constant(1), 2, numpy.ones((3, 2))],
                [initializers.Constant(2), 3,
                 testing.InitializerArgument(None, 0)])


@testing.inject_backend_tests(None, [{}])
class TestLinearInitializersWrong(_LinearParts,
                                  testing.LinkInitializersTestCase):

    def get_initializers(self):
        return ([initializers.Constant(1)],
                [testing.InitializerArgument(None, 5)])


class TestSerializers(unittest.TestCase):

    def _pair(self):
        src = L.Linear(2, 3)
        dst = L.Linear(2, 3)
        src.add_persistent('count', 7)
        dst.add_persistent('count', 0)
        return src, dst

    def test_npz(self):
        src, dst = self._pair()
        testing.save_and_load_npz(src, dst)
        testing.assert_allclose(dst.W.array, src.W.array)
        assert dst.count == 7

    def test_hdf5(self):
        src, dst = self._pair()
        testing.save_and_load_hdf5(src, dst)
        testing.assert_allclose(dst.b.array, src.b.array)
        assert dst.count == 7

    def test_generic(self):
        from chainer import serializers
        src, dst = self._pair()
        testing.save_and_load(src, dst, 'x.npz', serializers.save_npz,
                              serializers.load_npz)
        assert dst.count == 7


class TestMockTrainer(unittest.TestCase):

    def test_counters(self):
        trainer = testing.get_trainer_with_mock_updater(
            stop_trigger=(5, 'iteration'), iter_per_epoch=2)
        seen = []

        @training.make_extension(trigger=(1, 'iteration'))
        def watch(trainer):
            updater = trainer.updater
            seen.append([updater.iteration, updater.epoch,
                         updater.epoch_detail, updater.is_new_epoch,
                         updater.get_optimizer('main') is not None])

        trainer.extend(watch)
        trainer.run()
        _record.add('mock_trainer', seen)

    def test_default_and_extension_call(self):
        trainer = testing.get_trainer_with_mock_updater()
        seen = []
        trainer.extend(lambda t: seen.append(t.updater.iteration),
                       trigger=(3, 'iteration'))
        trainer.run()
        _record.add('mock_trainer_default', [seen, trainer.updater.epoch])

    def test_epoch_stop(self):
        trainer = testing.get_trainer_with_mock_updater(
            stop_trigger=(2, 'epoch'), iter_per_epoch=3)
        trainer.run()
        _record.add('mock_trainer_epoch', [trainer.updater.iteration,
                                           trainer.updater.epoch])

    def test_manual_updates(self):
        trainer = testing.get_trainer_with_mock_updater(iter_per_epoch=4)
        updater = trainer.updater
        details = []
        for _ in range(5):
            updater.update()
            details.append([updater.iteration, updater.epoch_detail,
                            updater.is_new_epoch])
        _record.add('mock_trainer_manual', details)
        assert trainer.stop_trigger is not None
        assert isinstance(chainer.reporter.Reporter(), object)


class TestMockTrainerAsExtensionTestsUseIt(unittest.TestCase):

    def test_initial_state(self):
        updater = testing.get_trainer_with_mock_updater().updater
        _record.add('mock_trainer_initial', [
            updater.iteration, updater.epoch, updater.epoch_detail,
            updater.is_new_epoch, updater.previous_epoch_detail])

    def test_shift_with_mocked_optimizer(self):
        optimizer = mock.MagicMock()
        optimizer.x = 2.0
        trainer = testing.get_trainer_with_mock_updater((4, 'iteration'))
        trainer.updater.get_optimizer.return_value = optimizer
        values = []
        trainer.extend(extensions.ExponentialShift('x', 0.5),
                       trigger=(1, 'iteration'))
        trainer.extend(lambda t: values.append(optimizer.x),
                       trigger=(1, 'iteration'), priority=-1)
        trainer.run()
        _record.add('mock_trainer_shift', [
            values, trainer.updater.update_core.call_count])

    def test_log_report(self):
        with tempfile.TemporaryDirectory() as out:
            trainer = testing.get_trainer_with_mock_updater(
                (4, 'iteration'), iter_per_epoch=2)
            trainer.out = out
            log = extensions.LogReport(trigger=(1, 'epoch'))
            trainer.extend(log)
            trainer.run()
            _record.add('mock_trainer_log', [
                sorted(set(entry) - {'elapsed_time'}) + [
                    entry['epoch'], entry['iteration']]
                for entry in log.log] + [os.listdir(out)])

    def test_extensions_argument(self):
        calls = []
        ext = training.make_extension(trigger=(2, 'iteration'))(
            lambda t: calls.append(t.updater.iteration))
        trainer = testing.get_trainer_with_mock_updater(
            (6, 'iteration'), extensions=[ext])
        trainer.run()
        _record.add('mock_trainer_extensions', calls)


@testing.inject_backend_tests(None, [{}])
class TestLinearOnlyW(_LinearParts, testing.LinkTestCase):

    param_names = ('W',)
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        return (initializers.Normal(0.5),
                numpy.zeros(3, numpy.float32))


@testing.inject_backend_tests(None, [{}])
class TestLinearSkipForward(_LinearParts, testing.LinkTestCase):

    skip_forward_test = True


@testing.parameterize(*testing.product({'nobias': [False, True]}))
@testing.inject_backend_tests(None, [{}])
class TestConvolution(testing.LinkTestCase):

    param_names = ('W',)

    def setUp(self):
        if not self.nobias:
            self.param_names = ('W', 'b')

    def generate_params(self):
        W = numpy.random.uniform(-1, 1, (2, 1, 2, 2)).astype(numpy.float32)
        b = numpy.random.uniform(-1, 1, (2,)).astype(numpy.float32)
        return W, b

    def create_link(self, initializers):
        W, b = initializers
        return L.Convolution2D(1, 2, 2, initialW=W, initial_bias=b,
                               nobias=self.nobias)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (1, 1, 3, 3)).astype(
            numpy.float32),

    def forward(self, link, inputs, device):
        return link(inputs[0]),

    def forward_expected(self, link, inputs):
        x, = inputs
        W = link.W.array
        y = numpy.zeros((1, 2, 2, 2), numpy.float32)
        for i in range(2):
            for j in range(2):
                y[0, :, i, j] = (W * x[0, :, i:i + 2, j:j + 2]).sum(
                    axis=(1, 2, 3))
        if not self.nobias:
            y += link.b.array[:, None, None]
        return y,


@testing.inject_backend_tests(None, [{}])
class TestLinearInitializersMore(_LinearParts,
                                 testing.LinkInitializersTestCase):

    def get_initializers(self):
        return ([initializers.Constant(1), numpy.full((3, 2), 2.0)],
                [testing.InitializerArgument(None, 0),
                 testing.InitializerArgument(4.0, initializers.Constant(4))])


@testing.inject_backend_tests(None, [{}])
class TestLinearInitializersBadShape(_LinearParts,
                                     testing.LinkInitializersTestCase):

    def get_initializers(self):
        return [numpy.ones((2, 2))], [initializers.Zero()]
