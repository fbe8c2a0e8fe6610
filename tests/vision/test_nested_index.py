"""A large index boxed twice, alone and with the top of the next card's index below it, is one corner
(`JoinConfig.nested_index`): a box lying for the most part inside a surer box of its own class is dropped."""

from collections import Counter

from cached_photos import boxes, photo_file

from vision.corners import JoinConfig, dedupe, join_corners
from vision.detection import Detection

PHOTO = "nested_index_photo.json"


def counted(dets, config: JoinConfig | None = None, classes: str = "9Q") -> dict[str, int]:
    found = Counter(card.cls for card in join_corners(dets, config))
    return {cls: found[cls] for cls in classes}


def test_held_out_large_indices_boxed_twice_count_once():
    # held-out round 176 side 1: tango-nuevo 9s and Qs down their columns, one 9 and three Qs of them boxed
    # twice (two of those Qs' boxes are unsure ones a column's spacing calls for)
    # (an unsure 9 box on a covered Q, which a column's spacing called for, stays a lone 9 here; the photo
    # path reads it as its column's Q)
    photo = photo_file(PHOTO)
    found = counted(boxes(photo))
    assert found["Q"] == photo["cards"]["Q"] == 7
    assert counted(boxes(photo), JoinConfig(nested_index=0)) == {"9": found["9"] + 1, "Q": 9}  # the rule off


def test_the_surer_of_two_nested_boxes_of_one_class_is_kept():
    index, doubled = Detection("9", 0.38, (70, 261, 126, 320)), Detection("9", 0.35, (68, 261, 135, 362))
    assert dedupe([doubled, index], nested_index=0.8) == [index]
    assert dedupe([doubled, index]) == [index, doubled]  # off unless asked for: 0.49 overlap is under 0.6
    surer = Detection("9", 0.5, doubled.box)
    assert dedupe([index, surer], nested_index=0.8) == [surer]


def test_nested_boxes_of_two_classes_stay_two():
    # only one class's boxes are one index: a rank inside another rank's box is left to the overlap rule
    inner, outer = Detection("9", 0.38, (70, 261, 126, 320)), Detection("6", 0.35, (68, 261, 135, 362))
    assert len(dedupe([inner, outer], nested_index=0.8)) == 2
