"""The detection and counting metrics give the figures a reader expects."""

from collections import Counter

import numpy as np
import pytest

from training.eval.metrics import ImageEval, average_precision, evaluate_counts, evaluate_detections


def test_perfect_predictions_score_one():
    truth = [("4", (10, 10, 30, 40)), ("K", (50, 50, 70, 80))]
    preds = [("4", 0.9, (10, 10, 30, 40)), ("K", 0.8, (50, 50, 70, 80))]
    report = evaluate_detections([ImageEval(truth, preds)])
    assert report.map50 == pytest.approx(1.0)
    assert report.map50_95 == pytest.approx(1.0)
    assert report.precision == 1.0 and report.recall == 1.0


def test_wrong_class_is_a_miss_and_shows_in_the_confusion_table():
    truth = [("8", (10, 10, 30, 40))]
    preds = [("9", 0.9, (10, 10, 30, 40))]
    report = evaluate_detections([ImageEval(truth, preds)])
    assert report.recall == 0.0
    assert report.per_class["8"]["ap50"] == 0.0
    assert report.confusion == {"8": {"9": 1}}


def test_half_overlap_counts_at_iou_50_but_not_at_higher_thresholds():
    truth = [("A", (0, 0, 10, 10))]
    preds = [("A", 0.9, (0, 0, 10, 6.5))]  # IoU 0.65
    report = evaluate_detections([ImageEval(truth, preds)])
    assert report.map50 == pytest.approx(1.0)
    assert report.map50_95 == pytest.approx(0.4)  # thresholds 0.50..0.65 of ten


def test_duplicate_prediction_lowers_precision_not_recall():
    truth = [("5", (0, 0, 10, 10))]
    preds = [("5", 0.9, (0, 0, 10, 10)), ("5", 0.5, (0, 0, 10, 10))]
    report = evaluate_detections([ImageEval(truth, preds)])
    assert report.recall == 1.0
    assert report.precision == 0.5
    assert report.map50 == pytest.approx(1.0)  # the duplicate ranks below the hit


def test_average_precision_of_a_ranking_with_a_false_positive_first():
    ap = average_precision(np.array([0.0, 1.0]), np.array([0.9, 0.8]), n_truth=1)
    assert ap == pytest.approx(0.5, abs=0.01)


def test_count_report_exact_rate_and_card_level_scores():
    pairs = [
        (Counter({"9": 2, "K": 1}), Counter({"9": 2, "K": 1})),
        (Counter({"A": 1}), Counter({"A": 1, "Q": 1})),
    ]
    report = evaluate_counts(pairs)
    assert report.exact_photo_rate == 0.5
    assert report.card_recall == 1.0
    assert report.card_precision == pytest.approx(4 / 5)


def test_count_report_names_the_wrong_photos_with_their_extra_and_missed_cards():
    pairs = [
        (Counter({"9": 1, "K": 1}), Counter({"9": 2, "K": 1})),  # a 9 counted twice: one extra
        (Counter({"JOKER": 1, "5": 1}), Counter({"5": 1})),  # a joker missed
        (Counter({"7": 1}), Counter({"7": 1})),
    ]
    report = evaluate_counts(pairs, ["a.jpg", "b.jpg", "c.jpg"])
    assert (report.extra, report.missed) == (1, 1)
    assert report.wrong == [{"photo": "a.jpg", "extra": ["9"], "missed": []}, {"photo": "b.jpg", "extra": [], "missed": ["JOKER"]}]
