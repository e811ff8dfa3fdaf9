"""LSTM language-model training through the Chainer API alone: tokens/s.

EmbedID 10000x200, two stacked L.LSTM 200, linear to 10000; batch 20,
truncated BPTT: the loss of 35 steps is backpropagated, the graph cut with
unchain_backward, and SGD updates, while the LSTM states carry on;
``--static``: the model's forward marked with ``chainer.static_graph``.
Whichever ``chainer`` the interpreter imports is measured.
"""
import chainer
import chainer.functions as F
import chainer.links as L

from _workload import (BPROP_LEN, LM_BATCH, LM_UNITS, N_VOCAB,
                       chainer_measured, parse_options, per_second, report,
                       segment_starts, static_variant, token_stream,
                       workload_name)


class LanguageModel(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(N_VOCAB, LM_UNITS)
            self.lstm1 = L.LSTM(LM_UNITS, LM_UNITS)
            self.lstm2 = L.LSTM(LM_UNITS, LM_UNITS)
            self.out = L.Linear(LM_UNITS, N_VOCAB)

    def forward(self, tokens):
        h = self.lstm2(self.lstm1(self.embed(tokens)))
        return self.out(h)


def main():
    options = parse_options(__doc__.split('\n')[0], static=True)
    model = static_variant(chainer, LanguageModel)() if options.static \
        else LanguageModel()
    optimizer = chainer.optimizers.SGD()
    optimizer.setup(model)
    stream = token_stream()
    starts = segment_starts()

    def segment():
        start = next(starts)
        loss = 0
        for i in range(start, start + BPROP_LEN):
            loss += F.softmax_cross_entropy(model(stream[:, i]),
                                            stream[:, i + 1])
        model.cleargrads()
        loss.backward()
        loss.unchain_backward()
        optimizer.update()

    report(chainer_measured(chainer),
           workload_name('lstm_lm', options.static),
           tokens_per_s=per_second(segment, BPROP_LEN * LM_BATCH,
                                   options.quick))


if __name__ == '__main__':
    main()
