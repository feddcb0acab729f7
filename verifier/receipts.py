"""Moved to :mod:`fairdeal.verification.receipts`; these names stay importable from here."""

from fairdeal.verification.receipts import ReceiptCheck
from fairdeal.verification.receipts import check_receipts
from fairdeal.verification.receipts import read_receipts

__all__ = ["ReceiptCheck", "check_receipts", "read_receipts"]
