#!/usr/bin/python3
"""The PyTorch peer of copy_typeflow.cpp (Debian's python3-torch): one training step of
seq2seq_test.py's testModelWithBuckets copy model for one bucket (L encoder and L decoder
steps), written after TensorFlow 1.x's legacy_seq2seq.embedding_attention_seq2seq:

  encoder   nn.Embedding(10, 24) over the encoder ids, a 2-layer nn.GRU(24, 24) over them
            (TensorFlow: EmbeddingWrapper of a MultiRNNCell of two GRUCell(24) in static_rnn);
            its top outputs are the attention states [B, L, 24], its last states the decoder's
            initial state;
  decoder   legacy_seq2seq.attention_decoder with one head: the decoder's own
            nn.Embedding(10, 24); hidden features = attention states @ AttnW_0 (TensorFlow's
            1x1 conv2d); per step x = Linear(48, 24)([input, attns]), the 2-layer cell
            (two nn.GRUCell(24, 24)), attns = softmax(sum(AttnV_0 * tanh(features +
            Linear(48, 24)(concat(h1, h2))))) read over the attention states, the output
            Linear(48, 24)([cell output, attns]) (AttnOutputProjection); first attns zero;
  loss      sampled_softmax_loss over the outputs with proj_w [24, 10], proj_b [10] (outside
            the model), written by hand: TensorFlow's log_uniform_candidate_sampler (8 unique
            samples over 10 classes, the expected counts of a unique sampler from its number
            of tries), logits minus log Q, accidental hits removed; the sequence loss of
            legacy_seq2seq (per example the mean over the steps, then the mean over the batch);
  update    backward, torch.nn.utils.clip_grad_norm_(30), torch.optim.Adam(lr 0.03, eps 1e-5).

One step = zero_grad, forward, backward, clipping, Adam step and the loss as a Python float
(typeflow's step fetches the loss too). Differences from TensorFlow's model, none of which
changes the shapes of the work: PyTorch's GRU applies the reset gate after the recurrent
matmul (TensorFlow's GRUCell before it), PyTorch's Adam adds epsilon to the bias-corrected
root (TensorFlow's to the uncorrected one), and the initializers are PyTorch's.

The data: batch 8, the encoder reads random ids 1..9, the decoder GO (0) then those ids, the
targets are the decoder's inputs shifted by one then 0; 16 batches drawn once and cycled.
Prints one line of JSON as the C++ program does. Run at 1 thread as run.sh does:

    OMP_WAIT_POLICY=PASSIVE OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 \
        pytorch_seq2seq.py L[-full] [REPS [STEPS [WARMUP]]]

L-full (4-full, 8-full): the full softmax instead of the sampled one (logits = outputs @ proj_w +
proj_b, cross-entropy per step), as copy_typeflow.cpp with S2S_FULL_SOFTMAX=1.
"""
import json
import math
import sys
import time

import torch
import torch.nn.functional as F
from torch import nn

CLASSES, UNITS, EMBEDDING, BATCH, SAMPLED = 10, 24, 24, 8, 8


class CopyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc_embedding = nn.Embedding(CLASSES, EMBEDDING)
        self.encoder = nn.GRU(EMBEDDING, UNITS, num_layers=2)
        self.dec_embedding = nn.Embedding(CLASSES, EMBEDDING)
        self.attn_w = nn.Parameter(torch.empty(UNITS, UNITS))         # AttnW_0, the 1x1 conv's [A, A]
        self.attn_v = nn.Parameter(torch.empty(UNITS))                # AttnV_0
        self.attention = nn.Linear(2 * UNITS, UNITS)                  # Attention_0 over concat(h1, h2)
        self.input_linear = nn.Linear(EMBEDDING + UNITS, EMBEDDING)  # [input, attns]
        self.cell0 = nn.GRUCell(EMBEDDING, UNITS)
        self.cell1 = nn.GRUCell(UNITS, UNITS)
        self.output_linear = nn.Linear(2 * UNITS, UNITS)              # AttnOutputProjection
        self.proj_w = nn.Parameter(torch.empty(UNITS, CLASSES))
        self.proj_b = nn.Parameter(torch.zeros(CLASSES))
        for p in (self.attn_w, self.proj_w):
            nn.init.xavier_uniform_(p)                                # TensorFlow's glorot_uniform
        nn.init.uniform_(self.attn_v, -math.sqrt(3 / UNITS), math.sqrt(3 / UNITS))

    def forward(self, enc_ids, dec_ids):
        """enc_ids, dec_ids [L, B] int64 -> the decoder's outputs [L, B, 24] (before proj_w)."""
        top, h_n = self.encoder(self.enc_embedding(enc_ids))          # [L, B, 24], [2, B, 24]
        states = top.transpose(0, 1)                                  # attention states [B, L, 24]
        features = states @ self.attn_w                               # hidden features [B, L, 24]
        h0, h1 = h_n[0], h_n[1]
        attns = states.new_zeros(enc_ids.shape[1], UNITS)
        outputs = []
        for inp in self.dec_embedding(dec_ids):                       # [B, 24] per step
            x = self.input_linear(torch.cat([inp, attns], 1))
            h0 = self.cell0(x, h0)
            h1 = self.cell1(h0, h1)
            y = self.attention(torch.cat([h0, h1], 1))
            s = (self.attn_v * torch.tanh(features + y.unsqueeze(1))).sum(2)  # [B, L]
            a = torch.softmax(s, 1)
            attns = torch.bmm(a.unsqueeze(1), states).squeeze(1)      # [B, 24]
            outputs.append(self.output_linear(torch.cat([h1, attns], 1)))
        return torch.stack(outputs)


LOG_RANGE = math.log(CLASSES + 1)


def log_uniform_p(k):
    """The log-uniform (Zipfian) sampler's probability of class k (TensorFlow's LogUniformSampler)."""
    return (math.log(k + 2) - math.log(k + 1)) / LOG_RANGE


def expected_count(p, tries):
    """TensorFlow's ExpectedCountHelper for a unique sampler of SAMPLED candidates."""
    return p * SAMPLED if tries == SAMPLED else -math.expm1(tries * math.log1p(-p))


def sample_unique(generator):
    """log_uniform_candidate_sampler(num_sampled=8, unique=True, range_max=10): draws until
    8 distinct classes; returns them and the number of draws."""
    sampled, tries = [], 0
    while len(sampled) < SAMPLED:
        u = torch.rand(64, generator=generator, dtype=torch.float64)
        for k in (torch.exp(u * LOG_RANGE).long() - 1).clamp_(0, CLASSES - 1).tolist():
            tries += 1
            if k not in sampled:
                sampled.append(k)
                if len(sampled) == SAMPLED:
                    break
    return sampled, tries


LOG_Q = torch.tensor([[math.log(log_uniform_p(k))] for k in range(CLASSES)])  # for the true classes


def sampled_softmax_loss(model, inputs, labels, generator):
    """tf.nn.sampled_softmax_loss(weights=transpose(proj_w), biases=proj_b, labels [N, 1],
    inputs [N, 24], num_sampled=8, num_classes=10), remove_accidental_hits=True -> [N]."""
    sampled, tries = sample_unique(generator)
    true_log_q = torch.tensor([math.log(expected_count(log_uniform_p(k), tries)) for k in range(CLASSES)])
    sampled_ids = torch.tensor(sampled)
    sampled_log_q = true_log_q[sampled_ids]
    w = model.proj_w.t()                                              # [10, 24]
    true_logits = (inputs * w[labels]).sum(1) + model.proj_b[labels] - true_log_q[labels]
    sampled_logits = inputs @ w[sampled_ids].t() + model.proj_b[sampled_ids] - sampled_log_q
    hits = labels.unsqueeze(1) == sampled_ids.unsqueeze(0)            # accidental hits
    sampled_logits = sampled_logits.masked_fill(hits, -3.4028234663852886e38)
    logits = torch.cat([true_logits.unsqueeze(1), sampled_logits], 1)
    return -torch.log_softmax(logits, 1)[:, 0]                        # the true class is column 0


def sequence_loss(model, outputs, targets, generator):
    """legacy_seq2seq.sequence_loss with unit weights: per example the mean of its steps'
    losses, then the mean over the batch (one sampler draw per step, as TensorFlow's graph)."""
    steps = [sampled_softmax_loss(model, out, tgt, generator) for out, tgt in zip(outputs, targets)]
    return (torch.stack(steps).sum(0) / (len(steps) + 1e-12)).mean()


def full_sequence_loss(model, outputs, targets):
    """The full softmax variant: logits = outputs @ proj_w + proj_b, sparse softmax
    cross-entropy per step, the same sequence loss."""
    logits = outputs @ model.proj_w + model.proj_b                  # [L, B, 10]
    steps = F.cross_entropy(logits.reshape(-1, CLASSES), targets.reshape(-1), reduction="none").view(targets.shape)
    return (steps.sum(0) / (targets.shape[0] + 1e-12)).mean()


def batches(length, count, generator):
    """Copy batches: encoder ids [L, B] in 1..9, decoder GO then the ids, targets shifted."""
    out = []
    for _ in range(count):
        ids = torch.randint(1, CLASSES, (length, BATCH), generator=generator)
        go = torch.zeros(1, BATCH, dtype=torch.long)
        dec = torch.cat([go, ids[:-1]])
        targets = torch.cat([dec[1:], go])                            # dec[1:] then 0
        out.append((ids, dec, targets))
    return out


def main():
    full = sys.argv[1].endswith("-full")
    length = int(sys.argv[1].removesuffix("-full"))
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    warmup = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    torch.set_num_threads(1)
    torch.manual_seed(42)
    generator = torch.Generator().manual_seed(111)
    model = CopyModel()
    opt = torch.optim.Adam(model.parameters(), lr=0.03, eps=1e-5)
    data = batches(length, 16, generator)
    sampler = torch.Generator().manual_seed(7)
    it = [0]
    recent = [0.0] * 100  # the training losses of the last 100 steps, their mean printed on stderr

    def losses(outputs, targets):
        if full:
            return full_sequence_loss(model, outputs, targets)
        return sequence_loss(model, outputs, targets, sampler)

    def step():
        enc, dec, targets = data[it[0] % len(data)]
        it[0] += 1
        opt.zero_grad()
        loss = losses(model(enc, dec), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 30.0)
        opt.step()
        recent[it[0] % len(recent)] = value = loss.item()
        return value

    def loss_value():
        with torch.no_grad():
            enc, dec, targets = data[0]
            return losses(model(enc, dec), targets).item()

    first = loss_value()
    for _ in range(warmup):
        step()
    cpu, wall = [], []
    for _ in range(reps):
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(steps):
            step()
        cpu.append(round(1e3 * (time.process_time() - c0) / steps, 6))
        wall.append(round(1e3 * (time.perf_counter() - w0) / steps, 6))
    last = loss_value()
    print(f"copy{length}{'-full' if full else ''} pytorch: mean training loss of the last {len(recent)} of {it[0]} steps "
          f"{sum(recent) / len(recent):.4f}", file=sys.stderr)
    print(json.dumps({"impl": "pytorch", "model": f"copy{length}{'-full' if full else ''}", "steps": steps, "threads": torch.get_num_threads(),
                      "step_cpu_ms": cpu, "step_wall_ms": wall, "first_loss": round(first, 5),
                      "last_loss": round(last, 5)}))


if __name__ == "__main__":
    main()
