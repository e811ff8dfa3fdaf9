"""An LSTM language model of the Penn Treebank, trained with truncated BPTT.

The model embeds each word, passes it through stacked LSTMs and predicts
the next word with a linear layer (Zaremba et al., 2014). The corpus is one
long sequence of word ids; each row of a mini-batch reads it from its own
offset, and the gradient flows back at most ``--bproplen`` words before the
graph is cut with ``unchain_backward``. Perplexity, exp(mean loss per
word), is reported on the validation set every epoch and on the test set
at the end.

    python examples/ptb/train_ptb.py                    # downloads PTB
    python examples/ptb/train_ptb.py --data-dir DIR     # local files
    python examples/ptb/train_ptb.py --smoke            # a few seconds

``--data-dir`` reads ptb.train.txt, ptb.valid.txt and ptb.test.txt (one
sentence a line, words separated by spaces), so the program runs offline.
"""
import argparse
import math
import os

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

SPLITS = ('train', 'valid', 'test')


class RNNForLM(chainer.Chain):
    """Word ids to scores of the next word: EmbedID, LSTMs, Linear."""

    def __init__(self, n_vocab, n_units, n_layers=2, dropout=0.5):
        super().__init__()
        self.dropout = dropout
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.lstms = chainer.ChainList(
                *[L.LSTM(n_units, n_units) for _ in range(n_layers)])
            self.out = L.Linear(n_units, n_vocab)
        for param in self.params():
            param.array[...] = np.random.uniform(-0.1, 0.1, param.shape)

    def reset_state(self):
        """Forget the past: the next word starts a new history."""
        for lstm in self.lstms:
            lstm.reset_state()

    def forward(self, x):
        h = self.embed(x)
        for lstm in self.lstms:
            h = lstm(F.dropout(h, self.dropout))
        return self.out(F.dropout(h, self.dropout))


class ParallelSequentialIterator(chainer.dataset.Iterator):
    """Batches of (word, next word) pairs read at evenly spaced offsets.

    Row i of every batch continues where row i of the previous batch
    stopped, so a recurrent model keeps a meaningful state across batches.
    An epoch is over when as many pairs as the sequence has words have
    been read.
    """

    def __init__(self, dataset, batch_size, repeat=True):
        self.dataset = dataset
        self.batch_size = batch_size
        self.repeat = repeat
        self.offsets = np.arange(batch_size) * len(dataset) // batch_size
        self.reset()

    def reset(self):
        self.iteration = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.

    def __next__(self):
        length = len(self.dataset)
        if not self.repeat and self.iteration * self.batch_size >= length:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        positions = self.offsets + self.iteration
        current = self.dataset[positions % length]
        following = self.dataset[(positions + 1) % length]
        self.iteration += 1
        epoch = self.iteration * self.batch_size // length
        self.is_new_epoch = self.epoch < epoch
        self.epoch = epoch
        return list(zip(current, following))

    @property
    def epoch_detail(self):
        return self.iteration * self.batch_size / len(self.dataset)

    @property
    def previous_epoch_detail(self):
        return (None if self._previous_epoch_detail < 0
                else self._previous_epoch_detail)

    def serialize(self, serializer):
        self.iteration = serializer('iteration', self.iteration)
        self.epoch = serializer('epoch', self.epoch)
        self._previous_epoch_detail = serializer(
            'previous_epoch_detail', self._previous_epoch_detail)


class BPTTUpdater(training.updaters.StandardUpdater):
    """Truncated backpropagation through time.

    Each update feeds ``bprop_len`` consecutive batches, sums their losses,
    backpropagates through all of them, cuts the graph behind the sum (the
    LSTM states stay) and makes one optimizer step.
    """

    def __init__(self, iterator, optimizer, bprop_len, device):
        super().__init__(iterator, optimizer, device=device)
        self.bprop_len = bprop_len

    def update_core(self):
        iterator = self.get_iterator('main')
        optimizer = self.get_optimizer('main')
        loss = 0
        for _ in range(self.bprop_len):
            x, t = self.converter(iterator.next(), self.device)
            loss += optimizer.target(x, t)
        optimizer.target.cleargrads()
        loss.backward()
        loss.unchain_backward()
        optimizer.update()


def read_ptb_files(directory):
    """The word-id arrays of the three PTB files in ``directory``.

    Ids number the words of the training file in order of first
    appearance, ``<eos>`` ending each line, as ``get_ptb_words`` does.

    Returns:
        ``(train, valid, test)`` int32 arrays and the vocabulary (a dict
        from word to id).
    """
    vocabulary = {}
    arrays = []
    for split in SPLITS:
        path = os.path.join(directory, f'ptb.{split}.txt')
        with open(path, encoding='utf-8') as f:
            words = [word for line in f for word in line.split() + ['<eos>']]
        if split == 'train':
            for word in words:
                vocabulary.setdefault(word, len(vocabulary))
        unknown = set(words) - vocabulary.keys()
        if unknown:
            raise ValueError(f'{path} has words that ptb.train.txt lacks: '
                             f'{sorted(unknown)[:5]}')
        arrays.append(np.array([vocabulary[w] for w in words], np.int32))
    return (*arrays, vocabulary)


def write_smoke_files(directory, seed=0):
    """Write tiny PTB-format files of sentences from a toy grammar."""
    rng = np.random.default_rng(seed)
    nouns = ['cat', 'dog', 'bird', 'child', 'farmer', 'teacher']
    verbs = ['sees', 'likes', 'follows', 'feeds']
    places = ['in the house', 'near the river', 'at school']
    os.makedirs(directory, exist_ok=True)
    for split, n_lines in zip(SPLITS, (300, 40, 40)):
        with open(os.path.join(directory, f'ptb.{split}.txt'), 'w',
                  encoding='utf-8') as f:
            for _ in range(n_lines):
                f.write(f' the {rng.choice(nouns)} {rng.choice(verbs)} the '
                        f'{rng.choice(nouns)} {rng.choice(places)} \n')


def load_corpus(args):
    """Train, validation and test word ids, and the vocabulary size."""
    if args.smoke:
        args.data_dir = os.path.join(args.out, 'smoke_ptb')
        write_smoke_files(args.data_dir)
    if args.data_dir:
        *splits, vocabulary = read_ptb_files(args.data_dir)
        return (*splits, len(vocabulary))
    if args.dataset_root:
        chainer.dataset.set_dataset_root(args.dataset_root)
    return (*chainer.datasets.get_ptb_words(),
            len(chainer.datasets.get_ptb_words_vocabulary()))


def add_perplexity(entry):
    """LogReport postprocess: perplexities from the mean losses."""
    for key, name in (('main/loss', 'perplexity'),
                      ('validation/main/loss', 'val_perplexity')):
        if key in entry:
            entry[name] = math.exp(float(entry[key]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--batchsize', '-b', type=int, default=20,
                        help='sequences read in parallel')
    parser.add_argument('--bproplen', '-l', type=int, default=35,
                        help='words in each truncated BPTT update')
    parser.add_argument('--epoch', '-e', type=int, default=39,
                        help='sweeps over the training words')
    parser.add_argument('--unit', '-u', type=int, default=650,
                        help='units in each LSTM layer')
    parser.add_argument('--layer', type=int, default=2,
                        help='number of stacked LSTM layers')
    parser.add_argument('--gradclip', '-c', type=float, default=5,
                        help='gradient norm threshold to clip')
    parser.add_argument('--device', '-d', type=int, default=-1,
                        help='-1 for the CPU, N >= 0 for GPU N (CuPy)')
    parser.add_argument('--out', '-o', default='result',
                        help='directory of the log and the model')
    parser.add_argument('--dataset-root',
                        help='where PTB is downloaded and cached')
    parser.add_argument('--data-dir',
                        help='read local ptb.{train,valid,test}.txt instead')
    parser.add_argument('--smoke', action='store_true',
                        help='tiny generated corpus and model; seconds')
    args = parser.parse_args()
    if args.smoke:
        args.epoch, args.unit = min(args.epoch, 2), 32
        args.batchsize, args.bproplen = 10, 10

    device = chainer.get_device(args.device)
    train, valid, test, n_vocab = load_corpus(args)
    print(f'vocabulary: {n_vocab} words, training: {len(train)} words')

    rnn = RNNForLM(n_vocab, args.unit, args.layer)
    model = L.Classifier(rnn)
    model.compute_accuracy = False   # perplexity is what matters here
    model.to_device(device)
    optimizer = chainer.optimizers.SGD(lr=1.0)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(
        args.gradclip))

    train_iter = ParallelSequentialIterator(train, args.batchsize)
    updater = BPTTUpdater(train_iter, optimizer, args.bproplen, device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    # The evaluator runs a copy sharing the parameters, so its LSTM state
    # does not disturb training; the hook starts it afresh each time.
    eval_model = model.copy()
    eval_rnn = eval_model.predictor
    trainer.extend(extensions.Evaluator(
        ParallelSequentialIterator(valid, 1, repeat=False), eval_model,
        device=device, eval_hook=lambda _: eval_rnn.reset_state()))
    trainer.extend(extensions.LogReport(postprocess=add_perplexity))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'perplexity', 'val_perplexity',
         'elapsed_time']))
    trainer.extend(extensions.snapshot_object(rnn, 'rnnlm.npz'),
                   trigger=(args.epoch, 'epoch'))
    trainer.run()

    eval_rnn.reset_state()
    test_result = extensions.Evaluator(
        ParallelSequentialIterator(test, 1, repeat=False), eval_model,
        device=device)()
    test_perplexity = math.exp(float(test_result['main/loss']))
    last = trainer.get_extension('LogReport').log[-1]
    print(f'final loss: {last["main/loss"]:.4f} (validation perplexity '
          f'{last["val_perplexity"]:.2f}, test perplexity '
          f'{test_perplexity:.2f})')


if __name__ == '__main__':
    main()
