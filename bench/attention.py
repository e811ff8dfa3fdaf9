"""A transformer encoder block, through the Chainer API alone:
iterations/s.

16 sequences of 64 steps, 128 units: multi-head self-attention (4 heads,
scaled dot products, softmax), residual + layer normalization, a 512-unit
relu feed-forward, residual + layer normalization; the mean over steps
through linear 10; softmax cross-entropy, Adam.
"""
import chainer
import chainer.functions as F
import chainer.links as L

from _workload import (ATTENTION_BATCH, ATTENTION_HEADS, ATTENTION_HIDDEN,
                       ATTENTION_LENGTH, ATTENTION_UNITS, N_CLASS,
                       classification_batch, parse_quick,
                       report_chainer_classifier)


class EncoderBlock(chainer.Chain):

    def __init__(self):
        super().__init__()
        units = ATTENTION_UNITS
        with self.init_scope():
            self.qkv = L.Linear(units, 3 * units)
            self.out = L.Linear(units, units)
            self.norm1 = L.LayerNormalization(units)
            self.ff1 = L.Linear(units, ATTENTION_HIDDEN)
            self.ff2 = L.Linear(ATTENTION_HIDDEN, units)
            self.norm2 = L.LayerNormalization(units)
            self.fc = L.Linear(units, N_CLASS)

    def attend(self, x):
        batch, length, units = x.shape
        heads, size = ATTENTION_HEADS, units // ATTENTION_HEADS
        qkv = self.qkv(x, n_batch_axes=2)
        qkv = F.transpose(F.reshape(qkv, (batch, length, 3, heads, size)),
                          (2, 0, 3, 1, 4))
        q, k, v = (F.reshape(a, (batch * heads, length, size))
                   for a in F.separate(qkv, axis=0))
        weights = F.softmax(F.matmul(q, k, transb=True) * size ** -0.5,
                            axis=2)
        h = F.reshape(F.matmul(weights, v), (batch, heads, length, size))
        h = F.reshape(F.transpose(h, (0, 2, 1, 3)), (batch, length, units))
        return self.out(h, n_batch_axes=2)

    def forward(self, x):
        batch, length, units = x.shape

        def rows(f, h):   # f applied to every step's units
            return F.reshape(f(F.reshape(h, (batch * length, -1))),
                             (batch, length, -1))

        h = rows(self.norm1, x + self.attend(x))
        h = rows(self.norm2,
                 h + rows(lambda r: self.ff2(F.relu(self.ff1(r))), h))
        return self.fc(F.mean(h, axis=1))


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    report_chainer_classifier(
        chainer, 'attention', EncoderBlock(), chainer.optimizers.Adam(),
        classification_batch(ATTENTION_BATCH,
                             (ATTENTION_LENGTH, ATTENTION_UNITS)), quick)


if __name__ == '__main__':
    main()
