"""seq2seq: an LSTM encoder-decoder that translates sentences.

The encoder, stacked LSTMs (NStepLSTM) over the embedded source sentence
read backwards, hands its final states to the decoder, which predicts the
target sentence word by word (Sutskever et al., 2014). Training feeds the
decoder the reference words (teacher forcing); translation feeds it its
own best word until it says ``<EOS>``. Loss and perplexity are reported
for training and, with a validation set, for validation.

    python examples/seq2seq/train_seq2seq.py \\
        --source giga-fren.preprocess.en --target giga-fren.preprocess.fr \\
        --source-vocab vocab.en --target-vocab vocab.fr \\
        --validation-source newstest2013.preprocess.en \\
        --validation-target newstest2013.preprocess.fr
    python examples/seq2seq/train_seq2seq.py --smoke      # seconds

The files are those of Chainer's WMT example after its preprocessing:
sentences one a line, words separated by spaces; vocabularies one word a
line. ``--smoke`` writes such files for a toy task (reverse a sequence of
letters) and trains on them.
"""
import argparse
import os

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

UNK = 0
EOS = 1


def sequence_embed(embed, xs):
    """Embed a list of id sequences with one EmbedID call."""
    lengths = np.cumsum([len(x) for x in xs[:-1]])
    return F.split_axis(embed(F.concat(xs, axis=0)), lengths, 0)


class Seq2seq(chainer.Chain):
    """Encoder-decoder of stacked LSTMs with a linear output layer."""

    def __init__(self, n_layers, n_source_vocab, n_target_vocab, n_units):
        super().__init__()
        with self.init_scope():
            self.embed_x = L.EmbedID(n_source_vocab, n_units)
            self.embed_y = L.EmbedID(n_target_vocab, n_units)
            self.encoder = L.NStepLSTM(n_layers, n_units, n_units, 0.1)
            self.decoder = L.NStepLSTM(n_layers, n_units, n_units, 0.1)
            self.W = L.Linear(n_units, n_target_vocab)

    def encode(self, xs):
        """The encoder's final states; sources are read backwards."""
        h, c, _ = self.encoder(None, None,
                               sequence_embed(self.embed_x,
                                              [x[::-1] for x in xs]))
        return h, c

    def forward(self, xs, ys):
        """Loss summed over each sentence, averaged over the batch."""
        eos = self.xp.array([EOS], np.int32)
        # The decoder reads <EOS> y1 .. yn and must predict y1 .. yn <EOS>.
        ys_in = [F.concat([eos, y], axis=0) for y in ys]
        ys_out = F.concat([F.concat([y, eos], axis=0) for y in ys], axis=0)
        h, c = self.encode(xs)
        _, _, outputs = self.decoder(h, c, sequence_embed(self.embed_y,
                                                          ys_in))
        word_losses = F.softmax_cross_entropy(
            self.W(F.concat(outputs, axis=0)), ys_out, reduce='no')
        loss = F.sum(word_losses) / len(xs)
        perplexity = self.xp.exp(F.average(word_losses).array)
        chainer.report({'loss': loss, 'perp': perplexity}, self)
        return loss

    def translate(self, xs, max_length=100):
        """Greedy decoding: the best word at each step, up to <EOS>."""
        with chainer.no_backprop_mode(), \
                chainer.using_config('train', False):
            h, c = self.encode(xs)
            words = self.xp.full(len(xs), EOS, np.int32)
            steps = []
            for _ in range(max_length):
                inputs = F.split_axis(self.embed_y(words), len(xs), 0)
                h, c, outputs = self.decoder(h, c, inputs)
                scores = self.W(F.concat(outputs, axis=0))
                words = scores.array.argmax(axis=1).astype(np.int32)
                steps.append(words)
        result = chainer.backend.CpuDevice().send(self.xp.stack(steps, 1))
        return [row[:np.flatnonzero(row == EOS)[0]]
                if (row == EOS).any() else row for row in result]


@chainer.dataset.converter()
def convert(batch, device):
    """A batch of (source, target) pairs to two lists of device arrays."""
    return ([device.send(x) for x, _ in batch],
            [device.send(y) for _, y in batch])


def load_vocabulary(path):
    """Word to id, ids from 2 in file order; 0 is <UNK>, 1 is <EOS>."""
    with open(path, encoding='utf-8') as f:
        ids = {line.strip(): i + 2 for i, line in enumerate(f)}
    ids['<UNK>'] = UNK
    ids['<EOS>'] = EOS
    return ids


def load_sentences(vocabulary, path):
    """Each line of ``path`` as an int32 array of word ids."""
    with open(path, encoding='utf-8') as f:
        return [np.array([vocabulary.get(w, UNK) for w in line.split()],
                         np.int32) for line in f]


def load_pairs(args, source_ids, target_ids, source, target):
    """Sentence pairs of ``source`` and ``target`` within the length
    limits of ``args``."""
    sources = load_sentences(source_ids, source)
    targets = load_sentences(target_ids, target)
    if len(sources) != len(targets):
        raise ValueError(f'{source} has {len(sources)} sentences but '
                         f'{target} has {len(targets)}')
    return [(s, t) for s, t in zip(sources, targets)
            if args.min_length <= len(s) <= args.max_length
            and args.min_length <= len(t) <= args.max_length]


def write_smoke_files(directory, n_train=400, n_valid=40, seed=0):
    """A toy task in the WMT files' format: reverse a letter sequence.

    Returns the paths of the source, target, source vocabulary, target
    vocabulary, validation source and validation target files.
    """
    rng = np.random.default_rng(seed)
    letters = list('abcdefghij')
    names = ('source', 'target', 'source.vocab', 'target.vocab',
             'valid.source', 'valid.target')
    paths = [os.path.join(directory, name) for name in names]
    os.makedirs(directory, exist_ok=True)
    for path in paths[2:4]:
        with open(path, 'w', encoding='utf-8') as f:
            f.writelines(f'{letter}\n' for letter in letters)
    for source, target, n in ((paths[0], paths[1], n_train),
                              (paths[4], paths[5], n_valid)):
        sentences = [rng.choice(letters, rng.integers(3, 7))
                     for _ in range(n)]
        with open(source, 'w', encoding='utf-8') as f:
            f.writelines(' '.join(s) + '\n' for s in sentences)
        with open(target, 'w', encoding='utf-8') as f:
            f.writelines(' '.join(s[::-1]) + '\n' for s in sentences)
    return paths


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--source', help='source sentences')
    parser.add_argument('--target', help='target sentences')
    parser.add_argument('--source-vocab', help='source vocabulary')
    parser.add_argument('--target-vocab', help='target vocabulary')
    parser.add_argument('--validation-source',
                        help='source sentences for validation')
    parser.add_argument('--validation-target',
                        help='target sentences for validation')
    parser.add_argument('--batchsize', '-b', type=int, default=64,
                        help='sentence pairs in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='sweeps over the training pairs')
    parser.add_argument('--unit', '-u', type=int, default=1024,
                        help='units in each layer')
    parser.add_argument('--layer', '-l', type=int, default=3,
                        help='LSTM layers of the encoder and the decoder')
    parser.add_argument('--min-length', type=int, default=1,
                        help='shortest sentence kept')
    parser.add_argument('--max-length', type=int, default=50,
                        help='longest sentence kept')
    parser.add_argument('--device', '-d', type=int, default=-1,
                        help='-1 for the CPU, N >= 0 for GPU N (CuPy)')
    parser.add_argument('--out', '-o', default='result',
                        help='directory of the log and the model')
    parser.add_argument('--smoke', action='store_true',
                        help='a generated toy task; seconds')
    args = parser.parse_args()
    if args.smoke:
        (args.source, args.target, args.source_vocab, args.target_vocab,
         args.validation_source, args.validation_target) = \
            write_smoke_files(os.path.join(args.out, 'smoke_data'))
        args.epoch, args.unit, args.layer = min(args.epoch, 2), 32, 1
        args.batchsize = 32
    files = (args.source, args.target, args.source_vocab, args.target_vocab)
    if None in files:
        parser.error('--source, --target, --source-vocab and '
                     '--target-vocab are required (or --smoke)')
    if (args.validation_source is None) != (args.validation_target is None):
        parser.error('give both --validation-source and '
                     '--validation-target, or neither')

    device = chainer.get_device(args.device)
    source_ids = load_vocabulary(args.source_vocab)
    target_ids = load_vocabulary(args.target_vocab)
    train = load_pairs(args, source_ids, target_ids, args.source,
                       args.target)
    print(f'source vocabulary: {len(source_ids)}, target vocabulary: '
          f'{len(target_ids)}, training pairs: {len(train)}')

    model = Seq2seq(args.layer, len(source_ids), len(target_ids), args.unit)
    model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, converter=convert, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    entries = ['epoch', 'iteration', 'main/loss', 'main/perp']
    if args.validation_source:
        valid = load_pairs(args, source_ids, target_ids,
                           args.validation_source, args.validation_target)
        trainer.extend(extensions.Evaluator(
            chainer.iterators.SerialIterator(
                valid, args.batchsize, repeat=False, shuffle=False),
            model, converter=convert, device=device))
        entries += ['validation/main/loss', 'validation/main/perp']
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(entries + ['elapsed_time']))
    trainer.extend(extensions.snapshot_object(model, 'seq2seq.npz'),
                   trigger=(args.epoch, 'epoch'))
    trainer.run()

    source_words = {i: w for w, i in source_ids.items()}
    target_words = {i: w for w, i in target_ids.items()}
    examples = (valid if args.validation_source else train)[:3]
    hypotheses = model.translate(
        [device.send(source) for source, _ in examples])
    for (source, reference), hypothesis in zip(examples, hypotheses):
        print('source:    ', ' '.join(source_words[i] for i in source))
        print('reference: ', ' '.join(target_words[i] for i in reference))
        print('translated:', ' '.join(target_words[i] for i in hypothesis))
    last = trainer.get_extension('LogReport').log[-1]
    print(f'final loss: {last["main/loss"]:.4f} (perplexity '
          f'{last["main/perp"]:.2f})')


if __name__ == '__main__':
    main()
