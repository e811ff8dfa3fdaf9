"""MNIST with a hand-written training loop instead of Trainer.

The same classifier, optimizer and iterators as train_mnist_trainer.py
(its ``setup``, imported), trained by a loop a user writes out: an
iterator gives mini-batches, ``concat_examples`` stacks them onto the
device, ``optimizer.update`` computes the loss, its gradients and the
step. After each epoch the test set is evaluated in ``no_backprop_mode``
(no graph is recorded) with ``config.train`` off. The model and the
optimizer state are saved at the end with ``serializers.save_npz``.

    python examples/mnist/train_mnist_custom_loop.py            # real MNIST
    python examples/mnist/train_mnist_custom_loop.py --smoke    # seconds
"""
import os

import chainer
from chainer.dataset import concat_examples

import train_mnist_trainer as mnist


def evaluate(model, iterator, device):
    """Mean loss and accuracy of a Classifier over one pass of iterator."""
    iterator.reset()
    total_loss = total_accuracy = count = 0
    with chainer.no_backprop_mode(), chainer.using_config('train', False):
        for batch in iterator:
            x, t = concat_examples(batch, device)
            loss = model(x, t)
            total_loss += float(loss.array) * len(t)
            total_accuracy += float(model.accuracy.array) * len(t)
            count += len(t)
    return total_loss / count, total_accuracy / count


def main():
    args = mnist.parse_args(mnist.make_parser(__doc__))
    device, model, optimizer, train_iter, test_iter = mnist.setup(args)

    print('epoch  train/loss  train/accuracy  test/loss  test/accuracy')
    sum_loss = sum_accuracy = seen = 0
    while train_iter.epoch < args.epoch:
        x, t = concat_examples(train_iter.next(), device)
        # Clears the gradients, computes model(x, t), backprops, steps.
        optimizer.update(model, x, t)
        sum_loss += float(model.loss.array) * len(t)
        sum_accuracy += float(model.accuracy.array) * len(t)
        seen += len(t)
        if train_iter.is_new_epoch:
            test_loss, test_accuracy = evaluate(model, test_iter, device)
            train_loss = sum_loss / seen
            print(f'{train_iter.epoch:5d}  {train_loss:10.4f}  '
                  f'{sum_accuracy / seen:14.4f}  {test_loss:9.4f}  '
                  f'{test_accuracy:13.4f}', flush=True)
            sum_loss = sum_accuracy = seen = 0

    os.makedirs(args.out, exist_ok=True)
    chainer.serializers.save_npz(os.path.join(args.out, 'mlp.npz'), model)
    chainer.serializers.save_npz(
        os.path.join(args.out, 'optimizer.npz'), optimizer)
    print(f'final loss: {train_loss:.4f} (test {test_loss:.4f}, '
          f'accuracy {test_accuracy:.4f})')


if __name__ == '__main__':
    main()
