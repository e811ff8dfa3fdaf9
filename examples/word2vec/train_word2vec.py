"""word2vec: word embeddings learnt from the words around each word.

Skip-gram (the default) trains each word's embedding to predict the words
around it; CBOW trains the mean embedding of the context to predict the
centre word (Mikolov et al., 2013). Predicting one word out of the whole
vocabulary is costly, so the output layer is negative sampling by default,
or a hierarchical softmax over a Huffman tree (``--out-type hsm``), or the
full softmax (``--out-type original``). The corpus is PTB's words.

    python examples/word2vec/train_word2vec.py                  # PTB
    python examples/word2vec/train_word2vec.py --model cbow --out-type hsm
    python examples/word2vec/train_word2vec.py --smoke          # seconds

At the end the embeddings are written in word2vec's text format to
``<out>/word2vec.txt`` and the nearest neighbours of a few words printed.
"""
import argparse
import collections
import os

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class Word2Vec(chainer.Chain):
    """Input embeddings and an output layer that scores a target word.

    ``forward(center, contexts)`` takes centre word ids (batch,) and the
    ids around them (batch, 2w). Skip-gram turns every (context, centre)
    pair into one prediction (predicting the centre from a context word is
    predicting a context word from the centre, with the roles swapped);
    CBOW makes one prediction per centre from the mean context embedding.
    """

    def __init__(self, n_vocab, n_units, loss_func, cbow=False):
        super().__init__()
        self.cbow = cbow
        with self.init_scope():
            self.embed = L.EmbedID(
                n_vocab, n_units,
                initialW=chainer.initializers.Uniform(1. / n_units))
            self.loss_func = loss_func

    def forward(self, center, contexts):
        e = self.embed(contexts)
        if self.cbow:
            h, target = F.average(e, axis=1), center
        else:
            batch, n_context, n_units = e.shape
            h = F.reshape(e, (batch * n_context, n_units))
            target = self.xp.repeat(center, n_context)
        loss = self.loss_func(h, target)
        chainer.report({'loss': loss}, self)
        return loss


class SoftmaxCrossEntropyLoss(chainer.Chain):
    """The full softmax output layer: a linear map to every word."""

    def __init__(self, n_in, n_out):
        super().__init__()
        with self.init_scope():
            self.out = L.Linear(n_in, n_out, initialW=0)

    def forward(self, x, t):
        return F.softmax_cross_entropy(self.out(x), t)


class WindowIterator(chainer.dataset.Iterator):
    """Batches of ``(centres, contexts)`` at shuffled positions.

    Each batch draws a window size w from 1..window and takes the w words
    on either side of each centre; centres are the positions that have
    ``window`` words on both sides.
    """

    def __init__(self, dataset, window, batch_size, repeat=True):
        self.dataset = np.asarray(dataset, np.int32)
        self.window = window
        self.batch_size = batch_size
        self.repeat = repeat
        self.order = np.random.permutation(
            np.arange(window, len(dataset) - window, dtype=np.int32))
        self.reset()

    def reset(self):
        self.position = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.

    def __next__(self):
        if not self.repeat and self.epoch > 0:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        end = self.position + self.batch_size
        centers = self.order[self.position:end]
        w = np.random.randint(1, self.window + 1)
        offsets = np.concatenate([np.arange(-w, 0), np.arange(1, w + 1)])
        contexts = self.dataset[centers[:, None] + offsets]
        self.is_new_epoch = end >= len(self.order)
        if self.is_new_epoch:
            np.random.shuffle(self.order)
            self.epoch += 1
            self.position = 0
        else:
            self.position = end
        return self.dataset[centers], contexts

    @property
    def epoch_detail(self):
        return self.epoch + self.position / len(self.order)

    @property
    def previous_epoch_detail(self):
        return (None if self._previous_epoch_detail < 0
                else self._previous_epoch_detail)

    def serialize(self, serializer):
        self.position = serializer('position', self.position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        self._previous_epoch_detail = serializer(
            'previous_epoch_detail', self._previous_epoch_detail)
        serializer('order', self.order)


@chainer.dataset.converter()
def convert(batch, device):
    """A batch is already two arrays: send them to the device."""
    centers, contexts = batch
    return device.send(centers), device.send(contexts)


def make_loss_func(out_type, n_units, counts):
    """The output layer: negative sampling, Huffman-tree hierarchical
    softmax, or the full softmax."""
    if out_type == 'ns':
        return L.NegativeSampling(n_units, counts, sample_size=5)
    if out_type == 'hsm':
        tree = L.BinaryHierarchicalSoftmax.create_huffman_tree(
            {word: count for word, count in enumerate(counts) if count})
        return L.BinaryHierarchicalSoftmax(n_units, tree)
    return SoftmaxCrossEntropyLoss(n_units, len(counts))


def smoke_corpus(n_words=40, n_topics=4, length=3000, seed=0):
    """A generated word sequence with topics: a word is mostly followed
    by a word of its own topic, so words of one topic share contexts."""
    rng = np.random.default_rng(seed)
    topic_size = n_words // n_topics
    words = np.empty(length, np.int32)
    topic = 0
    for i in range(length):
        if rng.random() < 0.1:
            topic = rng.integers(n_topics)
        words[i] = topic * topic_size + rng.integers(topic_size)
    vocabulary = {f'w{i}': i for i in range(n_words)}
    return words[:length * 5 // 6], words[length * 5 // 6:], vocabulary


def load_corpus(args):
    """Training and validation word ids, and the vocabulary."""
    if args.smoke:
        return smoke_corpus()
    if args.dataset_root:
        chainer.dataset.set_dataset_root(args.dataset_root)
    train, valid, _ = chainer.datasets.get_ptb_words()
    return train, valid, chainer.datasets.get_ptb_words_vocabulary()


def save_embeddings(path, embeddings, vocabulary):
    """word2vec's text format: a header line, then a word and its vector
    per line."""
    with open(path, 'w', encoding='utf-8') as f:
        f.write(f'{len(vocabulary)} {embeddings.shape[1]}\n')
        for word, index in vocabulary.items():
            values = ' '.join(f'{v:.6f}' for v in embeddings[index])
            f.write(f'{word} {values}\n')


def print_neighbours(embeddings, vocabulary, queries, k=5):
    """The k words of highest cosine similarity to each query word."""
    words = {index: word for word, index in vocabulary.items()}
    norms = np.linalg.norm(embeddings, axis=1, keepdims=True)
    unit = embeddings / np.maximum(norms, 1e-12)
    for query in queries:
        similarity = unit @ unit[vocabulary[query]]
        nearest = [i for i in np.argsort(-similarity)
                   if words[i] != query][:k]
        listed = ', '.join(f'{words[i]} {similarity[i]:.2f}'
                           for i in nearest)
        print(f'{query}: {listed}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--batchsize', '-b', type=int, default=1000,
                        help='centre words in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='sweeps over the training words')
    parser.add_argument('--unit', '-u', type=int, default=100,
                        help='size of the embeddings')
    parser.add_argument('--window', '-w', type=int, default=5,
                        help='largest number of context words on each side')
    parser.add_argument('--model', '-m', choices=['skipgram', 'cbow'],
                        default='skipgram', help='the model to train')
    parser.add_argument('--out-type', '-t', choices=['ns', 'hsm', 'original'],
                        default='ns', help='the output layer')
    parser.add_argument('--device', '-d', type=int, default=-1,
                        help='-1 for the CPU, N >= 0 for GPU N (CuPy)')
    parser.add_argument('--out', '-o', default='result',
                        help='directory of the log and the embeddings')
    parser.add_argument('--dataset-root',
                        help='where PTB is downloaded and cached')
    parser.add_argument('--smoke', action='store_true',
                        help='tiny generated corpus; seconds')
    args = parser.parse_args()
    if args.smoke:
        args.epoch, args.unit = min(args.epoch, 2), 16
        args.batchsize, args.window = 100, 2

    device = chainer.get_device(args.device)
    train, valid, vocabulary = load_corpus(args)
    counts = collections.Counter(train.tolist())
    counts = [counts[i] for i in range(len(vocabulary))]
    print(f'vocabulary: {len(vocabulary)} words, training: {len(train)} '
          f'words, model: {args.model}, output: {args.out_type}')

    loss_func = make_loss_func(args.out_type, args.unit, counts)
    model = Word2Vec(len(vocabulary), args.unit, loss_func,
                     cbow=args.model == 'cbow')
    model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train_iter = WindowIterator(train, args.window, args.batchsize)
    valid_iter = WindowIterator(valid, args.window, args.batchsize,
                                repeat=False)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, converter=convert, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(valid_iter, model, converter=convert,
                                        device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'elapsed_time']))
    trainer.run()

    embeddings = chainer.backend.CpuDevice().send(model.embed.W.array)
    save_embeddings(os.path.join(args.out, 'word2vec.txt'), embeddings,
                    vocabulary)
    frequent = np.argsort(counts)[::-1][:3]
    words = {index: word for word, index in vocabulary.items()}
    print_neighbours(embeddings, vocabulary, [words[i] for i in frequent])
    last = trainer.get_extension('LogReport').log[-1]
    print(f'final loss: {last["main/loss"]:.4f} (validation '
          f'{last["validation/main/loss"]:.4f})')


if __name__ == '__main__':
    main()
