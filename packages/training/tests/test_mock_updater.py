"""The trainer of ``get_trainer_with_mock_updater``, used as Chainer's
extension tests use it."""
from unittest import mock

import pytest

from kusari.training import testing


def test_counts_iterations_and_epochs():
    trainer = testing.get_trainer_with_mock_updater((5, 'iteration'),
                                                    iter_per_epoch=2)
    seen = []
    trainer.extend(lambda t: seen.append(
        (t.updater.iteration, t.updater.epoch, t.updater.epoch_detail,
         t.updater.previous_epoch_detail, t.updater.is_new_epoch)),
        trigger=(1, 'iteration'))
    trainer.run()
    assert seen == [(1, 0, 0.5, 0.0, False), (2, 1, 1.0, 0.5, True),
                    (3, 1, 1.5, 1.0, False), (4, 2, 2.0, 1.5, True),
                    (5, 2, 2.5, 2.0, False)]


@pytest.mark.parametrize('iter_per_epoch, epochs, new_epochs', [
    (2.5, [0.4, 0.8, 1.2, 1.6, 2.0], [False, False, True, False, True]),
    (0.5, [2., 4., 6., 8., 10.], [True] * 5),
])
def test_an_epoch_may_be_a_fraction_of_iterations(iter_per_epoch, epochs,
                                                   new_epochs):
    # As Chainer's trigger tests use it: epochs ending between iterations.
    updater = testing.get_trainer_with_mock_updater(
        iter_per_epoch=iter_per_epoch).updater
    seen = []
    for _ in range(5):
        updater.update()
        seen.append((updater.epoch_detail, updater.is_new_epoch))
    assert seen == list(zip(epochs, new_epochs))
    with pytest.raises(ValueError, match='iter_per_epoch must be a '
                                         'positive number'):
        testing.get_trainer_with_mock_updater(iter_per_epoch=0)


def test_optimizer_lookups_are_mocks_a_test_can_override():
    # As in Chainer's own extension tests:
    # ``trainer.updater.get_optimizer.return_value = optimizer``.
    trainer = testing.get_trainer_with_mock_updater()
    updater = trainer.updater
    main = updater.get_optimizer('main')
    assert main.lr == 0.01
    assert updater.get_all_optimizers() == {'main': main}
    with pytest.raises(KeyError, match="only the optimizer 'main'"):
        updater.get_optimizer('other')
    replacement = mock.MagicMock()
    updater.get_optimizer.return_value = replacement
    assert updater.get_optimizer('main') is replacement
    updater.get_optimizer.assert_called_with('main')


def test_update_calls_update_core():
    trainer = testing.get_trainer_with_mock_updater((3, 'iteration'))
    trainer.run()
    assert trainer.updater.update_core.call_count == 3
    assert trainer.updater.get_optimizer('main').t == 3


@pytest.mark.parametrize('iter_per_epoch, expected', [
    # (iteration, epoch, is_new_epoch) after each update, as in Chainer.
    (2.5, [(1, 0, False), (2, 0, False), (3, 1, True), (4, 1, False),
           (5, 2, True), (6, 2, False)]),
    (0.5, [(1, 2, True), (2, 4, True), (3, 6, True), (4, 8, True),
           (5, 10, True), (6, 12, True)]),
])
def test_epochs_of_a_fractional_number_of_iterations(iter_per_epoch,
                                                     expected):
    trainer = testing.get_trainer_with_mock_updater(
        (6, 'iteration'), iter_per_epoch=iter_per_epoch)
    seen = []
    trainer.extend(lambda t: seen.append(
        (t.updater.iteration, t.updater.epoch, t.updater.is_new_epoch)),
        trigger=(1, 'iteration'))
    trainer.run()
    assert seen == expected
    assert trainer.updater.epoch_detail == 6 / iter_per_epoch


@pytest.mark.parametrize('iter_per_epoch', [0, -1, True, '2'])
def test_iter_per_epoch_must_be_a_positive_number(iter_per_epoch):
    with pytest.raises(ValueError, match='positive number'):
        testing.get_trainer_with_mock_updater(iter_per_epoch=iter_per_epoch)
