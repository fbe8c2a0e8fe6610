"""Measuring the detector and the reading path: metrics, the labelled sets and the checks on generated photos.

`sets` reads labelled photo sets, `metrics` computes mAP and card counts,
`detections` runs the detector over a set, `failures` draws what it got
wrong, `card_counts` reads real photos through the product's path, `joins`
and `rounds` check generated photos and rounds whose true cards are known,
and `corner_confusions` names the deck designs whose corners are misread.
"""
