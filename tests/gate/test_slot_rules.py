"""Slot rules of the gate, one general rule per test, each with the side it must not give up.

Every faithful pair below failed before its rule (a faithful claim called `contradicted` or
held for a slot it restates); every guard pair must keep its mismatch.
"""

from __future__ import annotations

import pytest

from stream.verify.align import align
from stream.verify.codes import SignalCode
from stream.verify.slots import slots_of
from stream.verify.units import normalize_zh, quantities


def _codes(claim: str, evidence: str) -> set[SignalCode]:
    return {m.code for m in align(claim, evidence).mismatches}


def test_arabic_digits_before_a_chinese_scale_keep_their_value() -> None:
    (amount,) = quantities(normalize_zh("意外身故或伤残的保险金额最高为50万元。"))
    (written,) = quantities(normalize_zh("保额上限是五十万元"))
    assert amount.value == written.value == "500000"


CAP = (
    "If your flight is delayed by more than 12 hours, you may claim €50 for every full 12 hours "
    "of delay, up to a maximum of €300."
)


def test_an_amount_stated_in_its_own_clause_is_not_another_items_amount() -> None:
    claim = (
        "For a flight delay of more than 12 hours, you may claim €50 for each full 12 hours, "
        "up to €300 in total."
    )
    found = align(claim, CAP)
    assert not found.contradictions
    assert SignalCode.NUMBER_MISMATCH not in {m.code for m in found.mismatches}
    assert SignalCode.BOUND_MISMATCH not in {m.code for m in found.mismatches}


def test_a_merged_claim_keeps_each_amount_with_its_sentence() -> None:
    evidence = (
        "Сотрудникам предоставляется ежегодный оплачиваемый отпуск продолжительностью 28 "
        "календарных дней. Отпуск можно разделить на части, но одна из частей должна быть не "
        "менее 14 календарных дней."
    )
    claim = (
        "Ежегодный оплачиваемый отпуск длится 28 календарных дней, и его можно делить на части, "
        "одна из которых должна быть не менее 14 дней."
    )
    assert SignalCode.NUMBER_MISMATCH not in _codes(claim, evidence)


def test_the_amount_of_another_list_item_contradicts() -> None:
    evidence = "普通会员每月可免费退货2次，高级会员每月可免费退货5次。"
    found = align("高级会员每月可免费退货2次。", evidence)
    assert [m.detail for m in found.contradictions] == ["2次 (evidence, for this: 5次)"]


def test_the_bound_of_another_list_item_is_a_mismatch() -> None:
    evidence = (
        "Для сотрудников до 50 лет отпуск составляет 28 дней, для сотрудников старше 50 лет — "
        "35 дней."
    )
    claim = "Для сотрудников старше 50 лет отпуск составляет 28 дней."
    assert SignalCode.BOUND_MISMATCH in _codes(claim, evidence)


def test_bound_flipped_in_a_list_of_conditions_is_still_held() -> None:
    evidence = (
        "2至12岁儿童体重超过30公斤者，一次1片，一日1次；体重不超过30公斤者，一次半片，一日1次。"
    )
    found = align("2至12岁儿童体重不超过30公斤者，一次1片，一日1次。", evidence)
    assert not found.complete


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("意外伤残的保险金额上限是50万元。", "意外身故或伤残的保险金额最高为50万元。"),
        ("航班延误超过4小时的，每满4小时赔付300元，封顶1200元。", "航班延误超过4小时的，每满4小时赔付300元，最多赔付1200元。"),
        ("Water hotter than 30 °C can damage the membrane.", "Do not use hot water above 30 °C, as it can damage the membrane."),
        ("Детям младше 6 лет таблетки не назначаются.", "Детям до 6 лет таблетки не назначаются."),
    ],
)  # fmt: skip
def test_bound_words_of_the_same_direction_agree(claim: str, evidence: str) -> None:
    assert SignalCode.BOUND_MISMATCH not in _codes(claim, evidence)


def test_a_comparative_of_the_other_direction_is_a_bound_mismatch() -> None:
    evidence = "Do not use hot water above 30 °C, as it can damage the membrane."
    codes = _codes("Water colder than 30 °C can damage the membrane.", evidence)
    assert SignalCode.BOUND_MISMATCH in codes


def test_can_only_if_is_a_rule_not_a_hedge() -> None:
    evidence = "只有通过企业认证的用户才能调用支付相关接口。"
    codes = _codes("支付相关接口仅限通过企业认证的用户调用。", evidence)
    assert SignalCode.MODALITY_STRENGTHENED not in codes


def test_must_for_can_only_if_still_says_more() -> None:
    evidence = "Only administrators can delete a project, and only if it has no active deployments."
    claim = "Only administrators must delete a project, and only if it has no active deployments."
    assert SignalCode.MODALITY_STRENGTHENED in _codes(claim, evidence)


def test_do_before_a_number_word_is_a_bound_not_an_order() -> None:
    assert "before" not in slots_of("Проверка может занять до двадцати дней.").order
    assert "before" in slots_of("Оплатите заказ до отправки.").order


def test_a_russian_rule_opening_with_an_infinitive_is_an_instruction() -> None:
    assert "obligation" in slots_of("Хранить при температуре не выше 25 °C.").modality
    assert "obligation" not in slots_of("Честность и открытость символизируют шары.").modality
    assert "obligation" not in slots_of("Вернуть товар можно в течение 14 дней.").modality


def test_formal_xu_is_the_strict_obligation() -> None:
    evidence = "婚假为10天，须在领取结婚证后12个月内休完。"
    assert SignalCode.MODALITY_STRENGTHENED not in _codes(
        "婚假必须在领取结婚证后12个月内休完。", evidence
    )
    assert "strict" not in slots_of("无须提交申请。").modality


def test_a_left_out_conjunct_is_not_a_dropped_restriction() -> None:
    evidence = (
        "Planned maintenance is announced at least 72 hours in advance and does not count as "
        "downtime."
    )
    codes = _codes("Planned maintenance does not count as downtime.", evidence)
    assert SignalCode.CONDITION_DROPPED not in codes
    zh = "超出频率限制时，接口返回错误码429，客户端应等待至少1秒后再重试。"
    assert SignalCode.CONDITION_DROPPED not in _codes("如果超出频率限制，接口会返回429错误码。", zh)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The recovery time objective is 4 hours.", "For databases under 500 GB, the recovery time objective is 4 hours."),
        ("Restores can take up to 48 hours.", "Restores of more than 1 TB can take up to 48 hours."),
        ("恢复时间一般不超过2小时。", "容量在500 GB以内的数据库，恢复时间一般不超过2小时。"),
    ],
)  # fmt: skip
def test_a_dropped_restriction_is_still_named(claim: str, evidence: str) -> None:
    assert SignalCode.CONDITION_DROPPED in _codes(claim, evidence)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("如果商品没有质量问题，退货运费由买家自己承担。", "除非商品存在质量问题，否则退货运费由买家承担。"),
        ("If the item did not arrive damaged, shipping costs are not refunded.", "Shipping costs are not refunded unless the item arrived damaged."),
    ],
)  # fmt: skip
def test_if_not_restates_unless(claim: str, evidence: str) -> None:
    codes = _codes(claim, evidence)
    assert not codes & {SignalCode.NEGATION_MISMATCH, SignalCode.CONDITION_DROPPED}


def test_if_without_the_negation_is_not_unless() -> None:
    evidence = "Shipping costs are not refunded unless the item arrived damaged."
    found = align("If the item arrived damaged, shipping costs are not refunded.", evidence)
    assert not found.complete


def test_cannot_before_restates_only_after() -> None:
    evidence = "只有在订单状态变为“已签收”后，才能提交退货申请。"
    found = align("订单状态变为“已签收”之前，无法提交退货申请。", evidence)
    assert found.complete, found.mismatches
    assert not align("订单状态变为“已签收”之前，可以提交退货申请。", evidence).complete


@pytest.mark.parametrize(
    ("verb", "noun"),
    [("перенести", "перенос"), ("восстанавливать", "восстановление"), ("поддерживать", "поддержка"), ("проверять", "проверка")],
)  # fmt: skip
def test_russian_verbs_share_a_root_with_their_action_nouns(verb: str, noun: str) -> None:
    from stream.verify.lexicon import ru_roots

    assert set(ru_roots(verb)) & set(ru_roots(noun))


def test_a_russian_nominalisation_aligns_but_a_claimed_completion_needs_its_time() -> None:
    evidence = (
        "Перенос отпуска на следующий год допускается только с письменного согласия сотрудника."
    )
    claim = "Перенести отпуск на следующий год можно только с письменного согласия сотрудника."
    assert not align(claim, evidence).unaligned
    narrative = "Ребята взялись за дело, первым пунктом стала разработка игровой программы."
    assert "уже" in align("Ребята уже разработали игровую программу.", narrative).unaligned


def test_once_a_day_written_either_way_is_one_frequency() -> None:
    evidence = "成人及12岁以上儿童，一次1片，一日1次。"
    assert SignalCode.UNIT_MISMATCH not in _codes("12岁以上儿童每天一次，每次1片。", evidence)
    assert SignalCode.NUMBER_MISMATCH in _codes("12岁以上儿童每天两次，每次1片。", evidence)


def test_single_word_bounds_are_closed_words_and_bound_through_a_preposition() -> None:
    evidence = "Хранилище расположено в другом дата-центре, не ближе 100 км от основного."
    found = align(
        "Хранилище расположено в другом дата-центре минимум в 100 км от основного.", evidence
    )
    assert "минимум" not in " ".join(found.unaligned)
    assert SignalCode.BOUND_MISMATCH not in {m.code for m in found.mismatches}
    assert SignalCode.BOUND_MISMATCH in _codes(
        "Хранилище расположено в другом дата-центре максимум в 100 км от основного.", evidence
    )


def test_a_dropped_loss_reverses_the_direction() -> None:
    evidence = "Increasing rates of ice mass loss from the Greenland and Antarctic ice sheets."
    claim = "The Greenland and Antarctic ice sheets have increased in mass."
    assert SignalCode.ANTONYM_MISMATCH in _codes(claim, evidence)
    kept = "The rates of ice mass loss from the Greenland and Antarctic ice sheets are increasing."
    assert SignalCode.ANTONYM_MISMATCH not in _codes(kept, evidence)


def test_a_negative_prefix_keeps_its_word_from_aligning_with_the_bare_one() -> None:
    evidence = "Only non-programmable calculators are permitted in the exam."
    assert not align("Programmable calculators are permitted in the exam.", evidence).complete
    assert align("Non-programmable calculators are permitted in the exam.", evidence).complete
    assert align("Low-cost plans are available.", "Plans whose cost is low are available.").complete


def test_another_name_in_the_claims_place_contradicts() -> None:
    found = align("The backup copy is stored in Frankfurt.", "The backup copy is stored in Dublin.")
    assert [m.code for m in found.contradictions] == [SignalCode.ENTITY_MISMATCH]


def test_a_name_the_evidence_does_not_mention_is_missing_not_contradicted() -> None:
    evidence = (
        "TORONTO (August 22, 2017) - Canada Basketball's Men's High Performance Program is "
        "pleased to announce the final roster for the Senior Men's National Team."
    )
    claim = "On August 22, 2017, Richard Amardi was selected for the Senior Men's National Team."
    found = align(claim, evidence)
    assert SignalCode.ENTITY_MISMATCH not in {m.code for m in found.mismatches}
    assert not found.contradictions
    assert not found.complete


def _verdict(claim: str, evidence: str) -> str:
    from stream.quality.evaluate import LabelledClaim, to_request
    from stream.verify.checkers import RulesChecker

    record = LabelledClaim("t", "t", "en", claim, (("d", evidence),), "entailed")
    return RulesChecker().check(to_request(record)).verdict.value


def test_a_number_clash_in_a_claim_that_otherwise_aligns_is_contradicted() -> None:
    evidence = "The last cold period began about 115,000 years ago."
    assert _verdict("The last cold period began about 125,000 years ago.", evidence) == (
        "contradicted"
    )


def test_a_number_clash_in_a_claim_that_fails_to_align_elsewhere_is_insufficient() -> None:
    evidence = "The last cold period began about 115,000 years ago."
    claim = "The last sea-level high point occurred between two ice ages, about 125,000 years ago."
    assert _verdict(claim, evidence) == "insufficient"


# ---------------------------------------------------------------- third round: rule by rule
# (faithful claim, evidence, language) that each rule lets through, and (claim, evidence,
# language, verdict) guards that must keep their verdict.

THIRD_ROUND_FAITHFUL = [
    # an amount takes the characters the segmenter glues to it (一年内, 每半年)
    ("婚假必须在领取结婚证后一年内休完。", "婚假须在领取结婚证后12个月内休完。", "zh"),
    ("滤网建议每半年更换一次。", "滤网建议每6个月更换一次。", "zh"),
    # a percentage written in words
    ("超出部分按百分之九十赔付。", "超出部分按90%赔付。", "zh"),
    # a bound word before an amount is a slot (最高, 最多重试)
    ("在睡眠模式下，噪音最高30分贝。", "睡眠模式下，噪音不超过30分贝。", "zh"),
    ("回调失败后，平台会在一天内最多重试八次。", "回调失败后，平台会在24小时内重试最多8次。", "zh"),
    # a negated comparative is a bound, not a negation
    ("上传的文件不能大于10 MB。", "上传文件的大小不得超过10 MB。", "zh"),
    # a 后 that ends a threshold bounds it
    ("员工工作满十年后，年假会增加到十天。", "工作满10年的员工，年假增加到10天。", "zh"),
    (
        "备份超过保留期限后，会在一天内被自动删除。",
        "超过保留期限的备份将在24小时内被自动删除。",
        "zh",
    ),
    # 才能 is 才 and a modal; 未经 a condition word
    (
        "只有员工本人同意，公司才能安排其在年假期间加班。",
        "除非员工本人同意，否则公司不得安排员工在年假期间加班。",
        "zh",
    ),
    (
        "未经员工本人同意，公司不能安排员工在年假期间加班。",
        "除非员工本人同意，否则公司不得安排员工在年假期间加班。",
        "zh",
    ),
    # units a Chinese numeral stands before, ℃, and the bound after an amount (以内)
    ("本品须密封保存在二十五摄氏度以下。", "本品须密封保存于25℃以下。", "zh"),
    ("入会七天以内可以无理由退卡。", "会员可在入会后7日内无理由退卡。", "zh"),
    # a hyphenated range of number words is its amounts; раза в сутки is a frequency
    (
        "Ребёнку от шести до двенадцати лет дают по 5 мл два-три раза в сутки.",
        "Детям от 6 до 12 лет дают по 5 мл 2–3 раза в день.",
        "ru",
    ),
    # conjunctions are closed words; `的人` is `者`
    ("对本品过敏的人禁止使用。", "对本品过敏者禁止使用。", "zh"),
    # a modal the segmenter glues to a word is split off (应立即 -> 应 立即)
    ("如果服用过量，应该马上就医。", "如服用过量或出现严重不良反应，应立即就医。", "zh"),
    # 不支持 prohibits as 不能 does
    (
        "定制商品不能无理由退货。",
        "定制商品、生鲜食品和已拆封的个人护理用品不支持无理由退货。",
        "zh",
    ),
    # forms of a Russian modal, aspect partners with an inserted vowel
    (
        "Вы можете вернуть качественный товар в течение 14 дней с момента покупки.",
        "Товар надлежащего качества можно вернуть в течение 14 дней со дня покупки.",
        "ru",
    ),
    (
        "При заказе от 30 000 рублей курьер бесплатно заберёт крупногабаритный товар.",
        "Курьер забирает крупногабаритный товар бесплатно при заказе от 30 000 рублей.",
        "ru",
    ),
    # a negated governing verb negates its noun
    ("Косметику вернуть нельзя.", "Косметика возврату не подлежит.", "ru"),
    # Russian light verbs by lemma, and `положено` as `entitled`
    (
        "Ежегодный оплачиваемый отпуск длится 28 календарных дней.",
        "Сотрудникам предоставляется ежегодный оплачиваемый отпуск продолжительностью 28 "
        "календарных дней.",
        "ru",
    ),
]

THIRD_ROUND_GUARDS = [
    # 12-hour clock times are 24-hour ones
    (
        "Late check-out until 2 pm costs thirty euros.",
        "Late check-out until 14:00 costs 30 euros.",
        "en",
        "entailed",
    ),
    (
        "Late check-out until 3 pm costs thirty euros.",
        "Late check-out until 14:00 costs 30 euros.",
        "en",
        "contradicted",
    ),
    # no later than 3 days before an event = at least 3 days before it
    (
        "О заморозке можно заявить не более чем за три дня до её начала.",
        "Заявление о заморозке подаётся не позднее чем за 3 дня до её начала.",
        "ru",
        "contradicted",
    ),
    (
        "Submit the request at least three days before the start.",
        "Submit the request no later than 3 days before the start.",
        "en",
        "entailed",
    ),
    # an exact amount inside the evidence's own bound is another value, not a clash; outside
    # it, or against a bound of the claim's own, it is
    ("每人带50公斤。", "每人只能带70公斤。", "zh", "insufficient"),
    ("每人可以带90公斤。", "每人只能带70公斤。", "zh", "contradicted"),
    ("Each person can carry 5 bags.", "Each person can carry up to 7 bags.", "en", "insufficient"),
    (
        "Refunds are issued within 7 days.",
        "Refunds are issued within 14 days.",
        "en",
        "contradicted",
    ),
    # two closed characters are not always a closed word: 得到提高 claims it happened
    ("大学生就业比例得到提高。", "要提高大学生就业比例。", "zh", "insufficient"),
    # after a bound, `one` is a count: `may take more than one` clashes with `do not take more
    # than one`
    (
        "You may take more than one tablet in 24 hours.",
        "Do not take more than one tablet in 24 hours.",
        "en",
        "contradicted",
    ),
    (
        "Do not take more than one tablet a day.",
        "Do not take more than one tablet a day.",
        "en",
        "entailed",
    ),
    # compound number words are one amount
    (
        "SMS-уведомления стоят пятьдесят девять рублей в месяц.",
        "SMS-уведомления стоят 59 рублей в месяц.",
        "ru",
        "entailed",
    ),
    (
        "SMS-уведомления стоят пятьдесят восемь рублей в месяц.",
        "SMS-уведомления стоят 59 рублей в месяц.",
        "ru",
        "contradicted",
    ),
    ("The fee is twenty-five euros.", "The fee is 25 euros.", "en", "entailed"),
    ("The fee is twenty-six euros.", "The fee is 25 euros.", "en", "contradicted"),
    # 未满/不满 and `never less than` are bounds
    (
        "满十四岁的读者办证时必须有监护人陪同。",
        "未满14周岁的读者须由监护人陪同办理读者证。",
        "zh",
        "contradicted",
    ),
    (
        "Abroad you pay 3% of the amount, but never more than 4 euros.",
        "Abroad you pay 3% of the amount, with a minimum of 4 euros.",
        "en",
        "contradicted",
    ),
    # a negated disjunction negates each of its members
    (
        "A non-refundable booking can't be refunded.",
        "Non-refundable bookings cannot be cancelled, changed or refunded.",
        "en",
        "entailed",
    ),
    (
        "A non-refundable booking can be refunded.",
        "Non-refundable bookings cannot be cancelled, changed or refunded.",
        "en",
        "contradicted",
    ),
    # a dropped cap or exception that follows the clause the claim restates is held
    (
        "未保价的包裹丢失的，按运费的3倍赔偿。",
        "未保价的包裹丢失或损毁的，按运费的3倍赔偿，最高不超过300元。",
        "zh",
        "insufficient",
    ),
    (
        "购买不计免赔服务后，承租人就无需承担该部分损失。",
        "购买不计免赔服务后，承租人无需承担该部分损失，但酒后驾驶等违法情形除外。",
        "zh",
        "insufficient",
    ),
    (
        "Credits are capped at the monthly fee.",
        "Credits are capped at the monthly fee, up to 50 euros.",
        "en",
        "insufficient",
    ),
    # ... but a conjunct with a verb of its own is a statement the claim need not repeat
    (
        "Bacteria and viruses are not removed by the filter.",
        "The filter removes up to 99% of chlorine, but it does not remove bacteria or viruses.",
        "en",
        "entailed",
    ),
    # `subject to` is a proviso; dropping it is dropping a condition
    (
        "You can have a late check-out until 14:00 for 30 euros.",
        "Late check-out until 14:00 is available on request, subject to availability, for a fee of 30 euros.",
        "en",
        "insufficient",
    ),
    # an adverb is no paraphrase of an adjective or a noun
    (
        "Card payments abroad carry a conversion fee of 1.5%.",
        "Card payments in a foreign currency carry a conversion fee of 1.5%.",
        "en",
        "insufficient",
    ),
    # the day before an event is not the day of it
    (
        "Bookings can be cancelled free of charge until 18:00 on the day of arrival.",
        "Bookings can be cancelled free of charge until 18:00 on the day before arrival.",
        "en",
        "insufficient",
    ),
    (
        "Bookings can be cancelled free of charge until 18:00 on the day before arrival.",
        "Bookings can be cancelled free of charge until 18:00 on the day before arrival.",
        "en",
        "entailed",
    ),
    # `every` on what the evidence restricts to its first is a widened quantifier; `every`
    # before a time unit is a frequency
    (
        "Members get a free towel on every visit.",
        "Members get a free towel on their first visit.",
        "en",
        "insufficient",
    ),
    ("Backups run every six hours.", "Backups run every 6 hours.", "en", "entailed"),
    # `получить` is no light verb (to receive a bribe is not to give one), and a participle
    # of `следовать` (`в следующем году`) is no modal
    (
        "Он хотел получить взятку от дежурного.",
        "Он сообщил о даче взятки дежурному.",
        "ru",
        "insufficient",
    ),
    (
        "В следующем году приедет 15 человек.",
        "В этом году приехало 15 человек.",
        "ru",
        "insufficient",
    ),
    ("在睡眠模式下，噪音至少30分贝。", "睡眠模式下，噪音不超过30分贝。", "zh", "contradicted"),
    ("在睡眠模式下，噪音最低30分贝。", "睡眠模式下，噪音不超过30分贝。", "zh", "contradicted"),
    ("上传的文件不能小于10 MB。", "上传文件的大小不得超过10 MB。", "zh", "contradicted"),
    (
        "定制商品可以无理由退货。",
        "定制商品、生鲜食品和已拆封的个人护理用品不支持无理由退货。",
        "zh",
        "contradicted",
    ),
    (
        "员工工作满十年后，年假会增加到十天。",
        "工作满5年的员工，年假增加到10天。",
        "zh",
        "contradicted",
    ),
    # the order a claim reverses with its terms is no clash; the same terms reversed are
    ("拔掉电源插头之后才能清洁机身。", "清洁机身前，必须先拔下电源插头。", "zh", "insufficient"),
    ("清洁机身之后才能拔掉电源插头。", "清洁机身前，必须先拔下电源插头。", "zh", "contradicted"),
    (
        "Flush the new cartridge with cold water for 5 minutes after its first use.",
        "Before first use, flush the new cartridge by running cold water through it for 5 minutes.",
        "en",
        "contradicted",
    ),
    ("Косметику можно вернуть.", "Косметика не подлежит возврату.", "ru", "contradicted"),
    (
        "Пылесос умеет подниматься по ступеням.",
        "Пылесос не может подниматься по ступеням.",
        "ru",
        "contradicted",
    ),
    ("Курьер бесплатно выберет товар.", "Курьер бесплатно забирает товар.", "ru", "insufficient"),
    (
        "Вы должны вернуть товар в течение 14 дней.",
        "Товар можно вернуть в течение 14 дней.",
        "ru",
        "insufficient",
    ),
]


def _verdict_in(claim: str, evidence: str, language: str) -> str:
    from stream.quality.evaluate import LabelledClaim, to_request
    from stream.verify.checkers import RulesChecker

    record = LabelledClaim("t", "t", language, claim, (("d", evidence),), "entailed")
    return RulesChecker().check(to_request(record)).verdict.value


@pytest.mark.parametrize(("claim", "evidence", "language"), THIRD_ROUND_FAITHFUL)
def test_third_round_faithful_claims_are_entailed(claim: str, evidence: str, language: str) -> None:
    assert _verdict_in(claim, evidence, language) == "entailed"


@pytest.mark.parametrize(("claim", "evidence", "language", "verdict"), THIRD_ROUND_GUARDS)
def test_third_round_guards_keep_their_verdict(
    claim: str, evidence: str, language: str, verdict: str
) -> None:
    assert _verdict_in(claim, evidence, language) == verdict


def test_closed_chinese_words_are_masked_leftmost_longest() -> None:
    """`可以外借` masks `可以`, never `以外`: the order may not depend on the hash seed."""
    from stream.verify.align import _mask_closed

    assert _mask_closed("可以外借") == "  外借"


# A subject's restrictive word dropped widens the claim to all of the head (`Users` for `Free
# users`, `You` for it); the same subject kept, a quantifier reworded or another clause's
# subject named are no widening.
RESTRICTION_CASES = [
    ("Users can store up to 5 GB of files.", "Free users can store up to 5 GB of files.", "en", "insufficient"),
    ("You can store up to 5 GB of files.", "Free users can store up to 5 GB of files.", "en", "insufficient"),
    ("As a free user, you can store up to 5 GB of files.", "Free users can store up to 5 GB of files.", "en", "entailed"),
    ("Every request must be signed.", "All requests must be signed.", "en", "entailed"),
    ("Monthly backups are kept for 12 months.", "Daily backups are kept for 35 days, and monthly backups are kept for 12 months.", "en", "entailed"),
    ("Пользователи могут хранить не более 5 ГБ файлов.", "Бесплатные пользователи могут хранить не более 5 ГБ файлов.", "ru", "insufficient"),
    ("Вы можете хранить не более 5 ГБ файлов.", "Бесплатные пользователи могут хранить не более 5 ГБ файлов.", "ru", "insufficient"),
    ("Бесплатные пользователи могут хранить до 5 ГБ файлов.", "Бесплатные пользователи могут хранить не более 5 ГБ файлов.", "ru", "entailed"),
    ("用户最多可存储5GB文件。", "免费用户最多可存储5GB文件。", "zh", "insufficient"),
    ("您最多可存储5GB文件。", "免费用户最多可存储5GB文件。", "zh", "insufficient"),
    ("免费用户最多能存5GB文件。", "免费用户最多可存储5GB文件。", "zh", "entailed"),
    # an end no earlier than a date is the other bound of one no later than it
    ("Заявление нужно подать как минимум до 5 сентября.", "Заявление нужно подать не позднее 5 сентября.", "ru", "contradicted"),
    ("The offer is valid no later than 5 September.", "The offer is valid at least until 5 September.", "en", "contradicted"),
    ("The offer is valid until at least 5 September.", "The offer is valid at least until 5 September.", "en", "entailed"),
    # a bare unit or `one` after a bound is bounded: at least / at most an hour before
    ("Регистрацию можно пройти не раньше чем за час до отправления.", "Регистрацию можно пройти не позднее чем за час до отправления.", "ru", "contradicted"),
    ("Check-in is possible no earlier than one hour before departure.", "Check-in is possible no later than one hour before departure.", "en", "contradicted"),
    ("Тестовое восстановление проводят как минимум раз в квартал.", "Тестовое восстановление проводится не реже одного раза в квартал.", "ru", "entailed"),
    ("Тестовое восстановление проводят не чаще раза в квартал.", "Тестовое восстановление проводится не реже одного раза в квартал.", "ru", "contradicted"),
    # amounts after their bound; one-digit hours; a price paid is a price charged
    ("You can bring two guests a day at most, as long as they sign in at reception.", "Members may bring up to two guests per day, provided that the guests sign in at reception.", "en", "entailed"),
    ("You can bring three guests a day at most, as long as they sign in at reception.", "Members may bring up to two guests per day, provided that the guests sign in at reception.", "en", "contradicted"),
    ("The garage is open from 6:00 to 23:30.", "The garage is open from 06:00 to 23:30.", "en", "entailed"),
    ("The garage is open from 7:00 to 23:30.", "The garage is open from 06:00 to 23:30.", "en", "contradicted"),
    ("After the free period you pay €2.40 an hour.", "Parking costs €2.40 per hour after the free period.", "en", "entailed"),
    ("You pay €20 within 5 days.", "Refunds of €20 are credited within 5 days.", "en", "insufficient"),
    ("Вы платите 100 рублей в час.", "Стоимость стоянки составляет 100 рублей в час.", "ru", "entailed"),
    ("停车每小时收费10元。", "停车费为每小时10元。", "zh", "entailed"),
    # a Chinese condition clause left out
    ("租户退房后，房东须在15日内全额退还押金。", "合同期满且房屋无损坏的，房东须在租户退房后15日内全额退还押金。", "zh", "insufficient"),
    ("如果连续欠费超过3个月，供电企业可能会依法中止供电。", "连续欠费超过3个月的，供电企业可能依法中止供电。", "zh", "entailed"),
    # amounts of one kind for several things, swapped
    ("Гарантия на пломбы составляет три года, а на коронки — один год.", "Гарантия на пломбы составляет один год, а на коронки — три года.", "ru", "contradicted"),
    ("Гарантия на пломбы составляет один год, а на коронки — три года.", "Гарантия на пломбы составляет один год, а на коронки — три года.", "ru", "entailed"),
    # a companion the statement needs
    ("Children under 7 enter free of charge.", "Children under 7 enter free of charge when accompanied by an adult.", "en", "insufficient"),
    ("Children under 7 enter free of charge if they are accompanied by an adult.", "Children under 7 enter free of charge when accompanied by an adult.", "en", "entailed"),
    ("Дети до семи лет проходят в музей бесплатно.", "Дети до семи лет проходят в музей бесплатно в сопровождении взрослого.", "ru", "insufficient"),
    ("7岁以下儿童可免费入馆。", "7岁以下儿童在成人陪同下可免费入馆。", "zh", "insufficient"),
    # one clause's thing joined to another clause's statement
    ("物业费由租户承担。", "水费、电费和燃气费由租户承担，物业费由房东承担。", "zh", "insufficient"),
    ("物业费由房东承担。", "水费、电费和燃气费由租户承担，物业费由房东承担。", "zh", "entailed"),
    ("过敏体质者禁用。", "孕妇禁用，过敏体质者慎用。", "zh", "insufficient"),
    ("因自然老化造成的设施损坏由租户负责维修。", "因设施自然老化造成的损坏由房东负责维修，人为损坏由租户负责维修。", "zh", "insufficient"),
    ("人为损坏由租户负责维修。", "因设施自然老化造成的损坏由房东负责维修，人为损坏由租户负责维修。", "zh", "entailed"),
    # Russian times of day; `стоит` before an amount is a price
    ("Клиника работает каждый день с 9 утра до 9 вечера.", "Клиника работает ежедневно с 09:00 до 21:00.", "ru", "entailed"),
    ("Музей открыт с 10 до 19 часов.", "Музей открыт с 10:00 до 19:00.", "ru", "entailed"),
    ("В будни взрослый дневной ски-пасс обойдётся вам в 2500 рублей.", "Дневной ски-пасс для взрослых стоит 2500 рублей в будни.", "ru", "entailed"),
    # Chinese times of day, tenths, `免费` said with a negation
    ("博物馆上午九点到下午五点开放。", "博物馆开放时间为9:00-17:00。", "zh", "entailed"),
    ("博物馆上午九点到下午六点开放。", "博物馆开放时间为9:00-17:00。", "zh", "insufficient"),
    ("The garage is open from 6:00 to 23:30 every day.", "The garage is open 06:00-23:30 every day.", "en", "entailed"),
    ("退票费是票价的两成。", "退票费为票价的20%。", "zh", "entailed"),
    ("国内接听电话不收费。", "国内接听电话免费。", "zh", "entailed"),
    # a prohibition is a negation of what it forbids, not of its neighbours
    ("展厅内可以使用三脚架。", "展厅内允许拍照，但禁止使用闪光灯和三脚架。", "zh", "contradicted"),
    ("展厅内可以拍照。", "展厅内允许拍照，但禁止使用闪光灯和三脚架。", "zh", "entailed"),
    ("В залах можно пользоваться штативом.", "В залах можно фотографировать, но пользоваться штативом запрещено.", "ru", "contradicted"),
    ("В залах можно фотографировать.", "В залах можно фотографировать, но пользоваться штативом запрещено.", "ru", "entailed"),
    ("Photography is allowed in the galleries.", "Photography is allowed in the galleries, but tripods are prohibited.", "en", "entailed"),
    ("Nobody may work alone in the laboratory.", "Nobody may work in the laboratory alone outside normal hours.", "en", "insufficient"),
    # a rule stated plainly is one you must keep; a hedged one is not
    ("Платить за аренду нужно не позднее 5-го числа.", "Арендная плата вносится не позднее 5-го числа.", "ru", "entailed"),
    ("You must pay the rent by the 5th.", "Rent may be paid by the 5th.", "en", "insufficient"),
    # `仅供` (only for) is a necessary condition
    ("新能源车只要正在充电，就可以使用充电车位。", "新能源车充电车位仅供正在充电的车辆使用。", "zh", "insufficient"),
    ("充电车位仅供正在充电的车辆使用。", "新能源车充电车位仅供正在充电的车辆使用。", "zh", "entailed"),
    # a prohibition reworded is no clash: `banned` is a negation, and a claim's negation on
    # another word than the evidence's own negation is not `contradicted`
    ("Confetti and glitter are banned both inside and outside the building.", "Confetti and glitter are not allowed inside or outside the building.", "en", "entailed"),
    ("Guests are not allowed to print.", "Guests cannot use the phone booths or the printing service.", "en", "entailed"),  # the listed `printing service` is negated too
    ("Guests can use the printing service.", "Guests cannot use the phone booths or the printing service.", "en", "contradicted"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "evidence", "language", "verdict"), RESTRICTION_CASES)
def test_a_dropped_restriction_of_the_subject_is_not_entailed(
    claim: str, evidence: str, language: str, verdict: str
) -> None:
    assert _verdict_in(claim, evidence, language) == verdict


# Fifth round (issue 17): each rule's faithful case, written for this file, failed before it;
# each guard keeps the verdict the rule must not give up. Run by `_verdict_in`, as above.
FIFTH_ROUND = [
    # `at once` is no count; the conjunction `once` is `after`
    (
        "Members can borrow up to six books at once.",
        "Members may borrow up to 6 books at a time.",
        "en",
        "entailed",
    ),
    (
        "Once your parcel has shipped, it arrives within five days.",
        "Parcels arrive within 5 days after they have shipped.",
        "en",
        "entailed",
    ),
    ("Members can renew a book once.", "Members may renew a book twice.", "en", "insufficient"),
    # `each` after a price; free-choice `any` under an obligation, not under a negation
    ("Extra towels cost £2 each.", "Extra towels cost £2.", "en", "entailed"),
    (
        "You must report any damage within two days.",
        "Damage must be reported within 2 days.",
        "en",
        "entailed",
    ),
    (
        "Trial accounts do not count against any storage limit.",
        "Trial accounts do not count against the team storage limit.",
        "en",
        "insufficient",
    ),
    # 都 agreeing with a list; a bare 都 still widens
    ("网页和App都可以查询余额。", "余额可以在网页和App查询。", "zh", "entailed"),
    ("用户都可以免费使用。", "部分用户可以免费使用。", "zh", "insufficient"),
    # a rule in the next clause keeps its negation beside 仅限
    ("期刊可以外借。", "期刊仅限馆内阅览，不得外借。", "zh", "contradicted"),
    # a restrictive 的-clause before a short noun is a condition
    (
        "月收入不超过5000元的员工不需要缴税。",
        "月收入不超过5000元且没有其他收入的员工，不需要缴税。",
        "zh",
        "insufficient",
    ),
    # a requirement stated as enough
    (
        "As long as you show your ticket, you can enter the hall.",
        "You must show your ticket to enter the hall.",
        "en",
        "insufficient",
    ),
    (
        "To enter the hall, you have to show your ticket.",
        "You must show your ticket to enter the hall.",
        "en",
        "entailed",
    ),
    ("只要出示学生证就可以入场。", "参观者须出示学生证入场。", "zh", "insufficient"),
    # negated needs; `without X` and `X is not paid`
    ("Детям до пяти лет билет не нужен.", "Детям до 5 лет билет не требуется.", "ru", "entailed"),
    # an elliptic `but not` clause stays in focus
    (
        "Luggage you pack yourself is covered for theft.",
        "Luggage you pack yourself is covered for loss but not for theft.",
        "en",
        "contradicted",
    ),
    # the claim negates the very word the evidence states
    ("Поддержка не работает в выходные.", "Поддержка работает без выходных.", "ru", "contradicted"),
    # times of day in words
    ("The shop opens at seven in the morning.", "The shop opens at 07:00.", "en", "entailed"),
    ("The shop opens at seven in the evening.", "The shop opens at 07:00.", "en", "insufficient"),
    ("Выезд из номера до полудня.", "Выезд из номера до 12:00.", "ru", "entailed"),
    ("Заезд в номер с двух часов дня.", "Заезд в номер с 14:00.", "ru", "entailed"),
    ("Завтрак подают до половины одиннадцатого.", "Завтрак подают до 10:30.", "ru", "entailed"),
    ("请在开考前一刻钟入场。", "请在开考前15分钟入场。", "zh", "entailed"),
    ("The class lasts three quarters of an hour.", "The class lasts 45 minutes.", "en", "entailed"),
    ("押金是房费的一点五倍。", "押金为房费的1.5倍。", "zh", "entailed"),
    # bounds written after the amount or by an adjective
    (
        "You must be 18 or older to rent a kayak.",
        "You must be at least 18 to rent a kayak.",
        "en",
        "entailed",
    ),
    (
        "You must be 18 or younger to rent a kayak.",
        "You must be at least 18 to rent a kayak.",
        "en",
        "contradicted",
    ),
    (
        "Доставка бесплатна при заказе на 2000 рублей и больше.",
        "Доставка бесплатна при заказе от 2000 рублей.",
        "ru",
        "entailed",
    ),
    (
        "Сумма заказа должна быть не меньше 500 рублей.",
        "Минимальная сумма заказа составляет 500 рублей.",
        "ru",
        "entailed",
    ),
    (
        "Сумма заказа должна быть не больше 500 рублей.",
        "Минимальная сумма заказа составляет 500 рублей.",
        "ru",
        "contradicted",
    ),
    ("Printing costs 15 pence a page.", "Printing costs £0.15 per page.", "en", "entailed"),
    (
        "Если поезд опоздал, пассажир получает компенсацию.",
        "Если поезд опоздал более чем на 60 минут, пассажир получает компенсацию.",
        "ru",
        "insufficient",
    ),
    (
        "You can cancel for free at least 7 days before the event.",
        "You can cancel for free up to 7 days before the event.",
        "en",
        "entailed",
    ),
    # condition forms
    (
        "Dogs are only allowed in the garden.",
        "Dogs are not allowed, except in the garden.",
        "en",
        "entailed",
    ),
    ("Dogs are allowed.", "Dogs are not allowed, except in the garden.", "en", "contradicted"),
    (
        "Your account is active only once you confirm your email.",
        "Your account is not active until you confirm your email.",
        "en",
        "entailed",
    ),
    (
        "If the bike is not returned by 18:00, a late fee of £10 applies.",
        "The bike must be returned by 18:00, otherwise a late fee of £10 applies.",
        "en",
        "entailed",
    ),
    # a limit pointing back, an amount in a restrictive relative clause
    (
        "Customers who complain receive a voucher.",
        "Customers who complain within that period receive a voucher.",
        "en",
        "insufficient",
    ),
    (
        "Bulky waste is collected every month.",
        "Bulky waste is collected every month for households that pay a fee of £20.",
        "en",
        "insufficient",
    ),
    # a negation before a bound word turns it over (`не превышает` is an upper bound)
    (
        "Вход бесплатный, если сумма покупки не превышает 3000 рублей.",
        "Вход бесплатный, если сумма покупки составляет не менее 3000 рублей.",
        "ru",
        "contradicted",
    ),
    # a clause elided with a dash owns the claim that takes its words
    (
        "Входной билет для студентов стоит 300 рублей.",
        "Входной билет стоит 300 рублей, а для студентов — 150 рублей.",
        "ru",
        "contradicted",
    ),
    (
        "Входной билет стоит 300 рублей.",
        "Входной билет стоит 300 рублей, а для студентов — 150 рублей.",
        "ru",
        "entailed",
    ),
    # Russian aspect partners
    ("Посуду нужно упаковывать в коробки.", "Посуду нужно упаковать в коробки.", "ru", "entailed"),
    # a subject that keeps a modifier and puts a wider head in place of the evidence's
    (
        "Overdue items are charged 50 pence a day.",
        "Overdue adult books are charged £0.50 per day.",
        "en",
        "insufficient",
    ),
    (
        "Overdue adult books are charged 50 pence a day.",
        "Overdue adult books are charged £0.50 per day.",
        "en",
        "entailed",
    ),
    # Chinese localizers and particles
    ("请在App上预约。", "请在App预约。", "zh", "entailed"),
]


def test_words_that_only_contain_a_negation_character_negate_nothing() -> None:
    assert slots_of("发生不可抗力时，合同可以解除。").negated == ()
    assert slots_of("购买不计免赔服务后，无需承担损失。").negated != ()


NEGATED_BOUNDS = [
    # a prohibition a few words before `more than` is the bound's: `at most`, both ways
    ("Do not take the tablets for more than 3 days.", "Take the tablets for no more than 3 days.",
     "en", "entailed"),
    ("You can't take the tablets for more than 3 days.",
     "The tablets may be taken for at most 3 days.", "en", "entailed"),
    ("Each app cannot call the API more than 600 times a minute.",
     "Each app may call the API at most 600 times per minute.", "en", "entailed"),
    ("Нельзя принимать больше 8 таблеток в сутки.", "В сутки можно принять не более 8 таблеток.",
     "ru", "entailed"),
    ("Препарат нельзя принимать дольше 3 дней.", "Препарат можно принимать не дольше 3 дней.",
     "ru", "entailed"),
    ("Одно приложение не может вызывать API больше 600 раз в минуту.",
     "Каждое приложение может вызывать API не более 600 раз в минуту.", "ru", "entailed"),
    ("本品连续使用最多3天。", "本品不能连续使用超过3天。", "zh", "entailed"),
    ("本品不能连续使用超过3天。", "本品最多可连续使用3天。", "zh", "entailed"),
    # the other direction still clashes, now as a bound rather than a negation
    ("The tablets may be taken for more than 3 days.",
     "You must not take the tablets for more than 3 days.", "en", "contradicted"),
    ("Take the tablets for more than 3 days.", "Do not take the tablets for more than 3 days.",
     "en", "contradicted"),
    ("В сутки можно принять больше 8 таблеток.", "Нельзя принимать больше 8 таблеток в сутки.",
     "ru", "contradicted"),
    ("本品可以连续使用超过3天。", "本品不能连续使用超过3天。", "zh", "contradicted"),
    # a permission with a cap states the cap; `will` or `must` still say more
    ("Each app calls the API at most 600 times a minute.",
     "Each app may call the API at most 600 times per minute.", "en", "entailed"),
    ("Each app will call the API at most 600 times a minute.",
     "Each app may call the API at most 600 times per minute.", "en", "insufficient"),
    ("Each app must call the API at most 600 times a minute.",
     "Each app may call the API at most 600 times per minute.", "en", "insufficient"),
    ("本品最多会连续使用3天。", "本品最多可连续使用3天。", "zh", "insufficient"),
    ("Symptoms last 10 days.", "Symptoms may last up to 10 days.", "en", "insufficient"),
    # `without Y` before a negated bound keeps its condition: dropping it overreaches
    ("Препарат нельзя принимать как жаропонижающее дольше 3 дней.",
     "Без консультации врача препарат нельзя принимать дольше 3 дней как жаропонижающее.",
     "ru", "insufficient"),
    ("Без консультации врача препарат принимают как жаропонижающее не дольше трёх дней.",
     "Без консультации врача препарат нельзя принимать дольше 3 дней как жаропонижающее.",
     "ru", "entailed"),
    # a bound three words after the negation that restricts a noun is not the negation's
    ("Water hotter than 30 °C can damage the membrane.",
     "Do not use hot water above 30 °C, as it can damage the membrane.", "en", "entailed"),
]  # fmt: skip


PROHIBITIONS_AND_AMOUNTS = [
    # 禁止 / 严禁 / 不得 prohibit as 不能 does; a place phrase after the negation keeps its verb
    ("客房内不能吸烟。", "客房内禁止吸烟。", "zh", "entailed"),
    ("客房内禁止吸烟。", "客房内不能吸烟。", "zh", "entailed"),
    ("客房内不得吸烟。", "客房内禁止吸烟。", "zh", "entailed"),
    ("禁止在客房内吸烟。", "客房内不能吸烟。", "zh", "entailed"),
    ("客房内不能吸烟。", "客房内严禁吸烟。", "zh", "entailed"),
    ("客房内可以吸烟。", "客房内禁止吸烟。", "zh", "contradicted"),
    ("客房内允许吸烟。", "禁止在客房内吸烟。", "zh", "contradicted"),
    # a unit that ends the sentence is still the unit
    ("A 5% fee is charged for late payments.", "Late payments incur a fee of 5%.", "en",
     "entailed"),
    ("Late payments incur a 6% fee.", "Late payments incur a fee of 5%.", "en", "contradicted"),
    # comparatives of age and price bound their amount
    ("Children younger than 12 must be accompanied by an adult.",
     "Children under 12 must be accompanied by an adult.", "en", "entailed"),
    ("Visitors younger than 65 get a discount.", "Visitors over 65 get a discount.", "en",
     "contradicted"),
    ("Заказы дороже 3000 рублей доставляются бесплатно.",
     "Заказы свыше 3000 рублей доставляются бесплатно.", "ru", "entailed"),
    ("Заказы дешевле 3000 рублей доставляются бесплатно.",
     "Заказы свыше 3000 рублей доставляются бесплатно.", "ru", "contradicted"),
    ("电池续航最多10个小时。", "电池续航最长10小时。", "zh", "entailed"),
    ("电池续航至少10个小时。", "电池续航最长10小时。", "zh", "contradicted"),
    # `only Y can X` is a rule, not a hedge; `will` or `must` still say more
    ("Only managers approve expenses above €1,000.",
     "Only managers can approve expenses above €1,000.", "en", "entailed"),
    ("Расходы свыше 1000 евро утверждает только руководитель.",
     "Только руководитель может утвердить расходы свыше 1000 евро.", "ru", "entailed"),
    ("Only managers will approve expenses above €1,000.",
     "Only managers can approve expenses above €1,000.", "en", "insufficient"),
    ("Only managers must approve expenses above €1,000.",
     "Only managers can approve expenses above €1,000.", "en", "insufficient"),
    # a clause-final нельзя denies the infinitive its clause opens with; невозможно too
    ("Заказ нельзя отменить после отправки.", "Отменить заказ после отправки нельзя.", "ru",
     "entailed"),
    ("После отправки заказ не может быть отменён.", "Отменить заказ после отправки нельзя.",
     "ru", "entailed"),
    ("После отправки отменить заказ невозможно.", "Отменить заказ после отправки нельзя.", "ru",
     "entailed"),
    ("Заказ можно отменить после отправки.", "Отменить заказ после отправки нельзя.", "ru",
     "contradicted"),
    ("Заказ можно отменить после отправки.", "Отменить заказ после отправки невозможно.", "ru",
     "contradicted"),
]  # fmt: skip


CONDITION_FORMS_AND_AMOUNTS = [
    # `X unless Y` restates the evidence's `if not Y, X`, in both directions
    ("The subscription renews automatically unless you cancel.",
     "If you do not cancel, the subscription renews automatically.", "en", "entailed"),
    ("除非您取消，否则订阅会自动续订。", "如果您不取消，订阅将自动续订。", "zh", "entailed"),
    ("The subscription does not renew unless you cancel.",
     "If you do not cancel, the subscription renews automatically.", "en", "contradicted"),
    ("The subscription renews only if you cancel.",
     "If you do not cancel, the subscription renews automatically.", "en", "contradicted"),
    # times of day, currencies by code, halves, versions `or later`
    ("Meetings begin at 9:30 in the morning.", "Meetings start at 9:30 a.m.", "en", "entailed"),
    ("Meetings begin at 9:30 in the evening.", "Meetings start at 9:30 a.m.", "en",
     "insufficient"),
    ("办公室下午6点关门。", "办公室18:00关门。", "zh", "entailed"),
    ("办公室上午6点关门。", "办公室18:00关门。", "zh", "insufficient"),
    ("The fee is $1000.", "The fee is USD 1,000.", "en", "entailed"),
    # another currency for the same figure names the unit slot's other value (rules-3.10)
    ("The fee is €1000.", "The fee is USD 1,000.", "en", "contradicted"),
    ("50% of the deposit is refunded.", "Half of the deposit is refunded.", "en", "entailed"),
    ("40% of the deposit is refunded.", "Half of the deposit is refunded.", "en",
     "contradicted"),
    ("Возвращается 50% депозита.", "Половина депозита возвращается.", "ru", "entailed"),
    ("The app supports iOS 16 or later.", "The app supports iOS 16 and later.", "en",
     "entailed"),
    ("Приложение поддерживает iOS 16 и новее.", "Приложение поддерживает iOS 16 и выше.", "ru",
     "entailed"),
    # a negated Russian light verb negates the action noun before it
    ("Цифровые товары не возвращаются.", "Возврат цифровых товаров не производится.", "ru",
     "entailed"),
    ("Цифровые товары возвращаются.", "Возврат цифровых товаров не производится.", "ru",
     "contradicted"),
    # 只有 before the party restates 仅适用于 (the exclusive subject)
    ("只有新客户适用该折扣。", "该折扣仅适用于新客户。", "zh", "entailed"),
]  # fmt: skip


# Sixth round (issue 17, `rules-3.2`): each faithful case failed before its rule, most of
# them as `contradicted`; each guard keeps the verdict the rule must not give up.
SIXTH_ROUND = [*NEGATED_BOUNDS, *PROHIBITIONS_AND_AMOUNTS, *CONDITION_FORMS_AND_AMOUNTS]


STAGING = (
    "After an account is closed, its backups are deleted within 30 days. Restore tests are run "
    "at least once per quarter, and their results are reviewed by the security team. Backups "
    "of the staging environment are not retained beyond 7 days."
)


def test_an_amount_another_sentence_states_with_the_claims_words_is_no_contradiction() -> None:
    # a whole document as the source: the window search picks the 10% sentence (more words in
    # common); the claim restates the 50% one, which carries its words
    from tests.gate.realistic.en import SLA

    document = SLA.text
    claim = "A credit can be no more than half of the monthly fee."
    assert _verdict_in(claim, document, "en") == "insufficient"


def test_an_amount_of_a_sentence_about_something_else_still_contradicts() -> None:
    claim = "Backups of the staging environment are retained for 30 days."
    assert _verdict_in(claim, STAGING, "en") == "contradicted"


# Seventh round (issue 17, `rules-3.3`): misreadings found among the dev files' false accepts
# and faithful claims held; each case failed before its rule.
SEVENTH_ROUND = [
    # a closed class's phrase is masked as a phrase; its words are content elsewhere: `the
    # rule` is the subject, not the `as a rule` hedge
    ("The rule allows smoking.", "Smoking is not allowed by the rule.", "en", "contradicted"),
    ("As a rule, refunds take 5 days.", "Refunds usually take 5 days.", "en", "entailed"),
    ("In such cases, a spouse who is a guardian of minor dependents might have a stronger claim.",
     "As the guardian of minor dependents, one spouse might have a stronger claim than another.",
     "en", "entailed"),
    # `seems` / `appears to` / кажется / 似乎 hedge as `likely` does
    ("Visual attention is essential for learning.",
     "Visual attention seems essential for learning.", "en", "insufficient"),
    ("Visual attention seems essential for learning.",
     "Visual attention is essential for learning.", "en", "entailed"),
    ("The drug reduces pain.", "The drug appears to reduce pain.", "en", "insufficient"),
    ("Препарат снижает боль.", "Препарат, кажется, снижает боль.", "ru", "insufficient"),
    ("这种药减轻疼痛。", "这种药似乎减轻疼痛。", "zh", "insufficient"),
    # adverbs built on 不 negate nothing; a Chinese negation ends with its clause
    ("他骑车。", "他不知不觉骑车走过平安里。", "zh", "entailed"),
    ("他不会骑车。", "他不知不觉骑车走过平安里。", "zh", "insufficient"),
    ("他不会骑车。", "他余兴未休,骑车走过平安里。", "zh", "insufficient"),
    # an identifier written with a space and in another case (`Covid 19` for `COVID-19`)
    ("Covid 19 patients had a headache.", "COVID-19 patients had a headache.", "en", "entailed"),
    ("Covid 20 patients had a headache.", "COVID-19 patients had a headache.", "en",
     "insufficient"),
    # Latin letters with diacritics are letters: a name is one word, not its ASCII pieces
    ("Müller approved the budget.", "Müller approved the budget.", "en", "entailed"),
    ("Müller approved the budget.", "Mäller approved the budget.", "en", "insufficient"),
    # 别 in 别的 / 别人 is `other`, 不可多得 is `rare`: no negation (both were `contradicted`)
    ("家长们向阿姨送东西。", "元旦之前,别的家长都向阿姨们送东西。", "zh", "entailed"),
    ("我国面临着历史机遇", "现在我国面临着改革和发展的不可多得的历史机遇", "zh", "entailed"),
    ("你去。", "你别去。", "zh", "insufficient"),
    # a denied permission against evidence that only mentions the thing (a clause cut from a
    # sentence is no instruction either); against a stated permission it still contradicts
    ("Tobacco and alcohol are also not allowed.",
     "New Order Amish are against the production and use of tobacco and alcohol.", "en",
     "insufficient"),
    ("Smoking is not allowed.", "Guests may smoke on the balcony.", "en", "contradicted"),
    ("Alcohol is allowed.", "The prohibition of alcohol applies to members.", "en",
     "contradicted"),
    # capitals in a title-case claim or for emphasis mark no names
    ("Asymptomatic COVID: Silent, but Maybe Not Harmless",
     "APs with COVID-19 still have certain period of viral shedding, which suggests the "
     "possibility of transmission during their asymptomatic period.", "en", "insufficient"),
    ("The summit was held in Paris in 2019.", "The summit was held in Berlin in 2019.", "en",
     "contradicted"),
    # `forgot to` / `refused to` / забыл / отказалась imply the act did not happen
    ("The driver did not close the door.", "The driver forgot to close the door.", "en",
     "entailed"),
    ("The minister did not give details.", "The minister refused to give details.", "en",
     "entailed"),
    ("The driver closed the door.", "The driver forgot to close the door.", "en",
     "contradicted"),
    ("Водитель машины не закрыл дверь.", "Водитель машины забыл закрыть дверь.", "ru",
     "entailed"),
    ("Министр не сообщила подробности.", "Министр отказалась сообщить подробности.", "ru",
     "entailed"),
    # a negation inside the evidence's `if` clause is not asserted; a hedged or asked
    # predicate is not either
    ("The item is damaged.", "If the item is not damaged, we refund it.", "en", "insufficient"),
    ("У подсудимых были дети.",
     "Если бы детей у подсудимых не было, они могли бы получить семь лет.", "ru",
     "insufficient"),
    ("The driver did not close the door.", "The driver tried to close the door.", "en",
     "insufficient"),
    ("The driver did not close the door.", "Did the driver close the door?", "en",
     "insufficient"),
    ("The driver did not close the door.", "The driver closed the door.", "en", "contradicted"),
    # an amount the claim only bounds, inside that bound, is supported; a bound of the
    # evidence's own is another rule
    ("The term was extended by more than a year.", "The term was extended by two years.", "en",
     "entailed"),
    ("The term was extended by more than 12 months.", "The term was extended by 2 years.", "en",
     "entailed"),
    ("Delivery takes up to 5 days.", "Delivery takes 3 days.", "en", "entailed"),
    ("The term was extended by more than three years.", "The term was extended by two years.",
     "en", "contradicted"),
    ("Delivery takes up to 2 days.", "Delivery takes 3 days.", "en", "contradicted"),
    ("Refunds are issued within 14 days.", "Refunds are issued within 7 days.", "en",
     "contradicted"),
    # a negated antonym is the same statement: `closed` for `does not open`
    ("The office is closed on public holidays.",
     "The office does not open on public holidays.", "en", "entailed"),
    ("The service is unavailable on Sundays.", "The service is not available on Sundays.",
     "en", "entailed"),
    ("The office is not closed on public holidays.",
     "The office does not open on public holidays.", "en", "contradicted"),
    ("The office is closed on public holidays.", "The office is open on public holidays.", "en",
     "contradicted"),
    # an acronym with a possessive (`Team GB's`) is the acronym
    ("He was Chef de Mission of Team GB.", "Mark England was appointed as Team GB's Chef de "
     "Mission.", "en", "entailed"),
    ("He was Chef de Mission of Team US.", "Mark England was appointed as Team GB's Chef de "
     "Mission.", "en", "insufficient"),
    # a rounded amount is no other value; with `about` / около / 约 it is the amount
    ("About 97% of scientists agree.", "97.1% of scientists agree.", "en", "entailed"),
    ("97% of scientists agree.", "97.1% of scientists agree.", "en", "insufficient"),
    ("About 95% of scientists agree.", "97.1% of scientists agree.", "en", "contradicted"),
    ("Около 97% учёных согласны.", "97,1% учёных согласны.", "ru", "entailed"),
    ("约97%的科学家同意。", "97.1%的科学家同意。", "zh", "entailed"),
    # `not X but Y`: the negation says nothing against a claim about Y
    ("The constitution belongs to the people.",
     "The constitution does not belong to the state, it belongs to the people.", "en",
     "entailed"),
    ("The constitution belongs to the state.",
     "The constitution does not belong to the state, it belongs to the people.", "en",
     "contradicted"),
    ("Президент сказал, что конституция принадлежит народу.",
     "Конституция не принадлежит государству, она принадлежит народу, заявил президент.", "ru",
     "entailed"),
    # the negated predicate after a listed subject carries the claim too
    ("Косметику и нижнее бельё вернуть нельзя.",
     "Нижнее бельё, косметика и товары, изготовленные на заказ, возврату не подлежат.", "ru",
     "entailed"),
    ("Косметику и нижнее бельё можно вернуть.",
     "Нижнее бельё, косметика и товары, изготовленные на заказ, возврату не подлежат.", "ru",
     "contradicted"),
    # a bound word in an `if` clause is a slot: the condition restated as the subject's
    # participle keeps it
    ("Товар, купленный со скидкой больше 50%, можно обменять.",
     "Если товар куплен со скидкой более 50%, его можно обменять.", "ru", "entailed"),
    ("Товар можно обменять.", "Если товар куплен со скидкой более 50%, его можно обменять.",
     "ru", "insufficient"),
    # `X if not Y` = `X, except Y`, also with a negated rule (`cannot exceed … if … no`)
    ("Shipping is free if the order is not a bulk order.", "Shipping is free, except for bulk "
     "orders.", "en", "entailed"),
    ("Shipping is free if the order is a bulk order.", "Shipping is free, except for bulk "
     "orders.", "en", "insufficient"),
    ("A payment cannot exceed 600 dollars if the shop has no confirmed extended limit.",
     "A payment cannot exceed 600 dollars, except for shops with a confirmed extended limit.",
     "en", "entailed"),
    ("Один платёж не может превышать 600 000 рублей, если у магазина нет подтверждённого "
     "расширенного лимита.", "Сумма одного платежа не может превышать 600 000 рублей, кроме "
     "магазинов с подтверждённым расширенным лимитом.", "ru", "entailed"),
    # `not only` adds; it negates nothing
    ("The drug reduces pain and fever.",
     "The drug not only reduces pain but also lowers fever.", "en", "entailed"),
    ("The drug does not reduce pain.",
     "The drug not only reduces pain but also lowers fever.", "en", "contradicted"),
    # a sentence's first word and a headline's capitals are no other name
    ("The movement was active in Europe until 1972.",
     "The group was founded in 1957. The movement was active until 1972.", "en",
     "insufficient"),
    ("Global warming caused record July warmth in Alaska.",
     "Absurd January Warmth In Arctic Brings Record-Low Sea Ice Extent.", "en", "insufficient"),
]  # fmt: skip


def test_latin_words_with_diacritics_are_one_token() -> None:
    from stream.verify.tokens import tokens

    assert tokens("Jón Daði Böðvarsson, Đorđević, Nguyễn") == (
        "jón", "daði", "böðvarsson", "đorđević", "nguyễn",
    )  # fmt: skip


EIGHTH_ROUND = [
    # a negated word whose antonym the evidence states plainly says the same (non-graded)
    ("Smoking is not allowed on the premises.", "There is a prohibition of smoking on the "
     "premises.", "en", "entailed"),
    ("Smoking is allowed on the premises.", "There is a prohibition of smoking on the "
     "premises.", "en", "contradicted"),
    ("Prices are not increased.", "Prices are decreased.", "en", "insufficient"),
    # a Chinese advice clause after a comma is a statement of its own
    ("v1版本的接口会在2026年6月30日停止服务。", "v1版本接口将于2026年6月30日停止服务，建议尽快迁移到v2版本。",
     "zh", "entailed"),
    ("如果商品损坏，请联系客服。", "如果商品损坏，请联系客服。", "zh", "entailed"),
    ("请联系客服。", "如果商品损坏，请联系客服。", "zh", "insufficient"),
    ("使用本机，请阅读说明书。", "首次使用前，请阅读说明书。", "zh", "insufficient"),
    # 都 agrees with 随时 / 任何 of a leading clause: no quantifier of its own
    ("保单生效后，被保险人随时都能申请退保。", "保单生效后，被保险人可随时申请退保。", "zh", "entailed"),
    ("调用任何接口时，请求头中都必须带上令牌。", "调用所有接口时，请求头中必须带上令牌。", "zh", "entailed"),
    ("被保险人都能申请退保。", "部分被保险人可申请退保。", "zh", "insufficient"),
    # a range's ends bound it, and its first number takes the second's unit (周岁 is an age)
    ("被保险人必须年满18周岁且不超过70周岁。", "被保险人年龄须在18至70周岁之间。", "zh", "entailed"),
    ("被保险人必须年满18周岁且不超过80周岁。", "被保险人年龄须在18至70周岁之间。", "zh", "contradicted"),
    ("被保险人必须年满18周岁。", "被保险人年龄须在18至70周岁之间。", "zh", "insufficient"),
    ("项目持续18周。", "被保险人年龄须在18至70周岁之间。", "zh", "insufficient"),
    # the subject's negated restriction with a negated rule is `only … can` (X only if Y)
    ("未通过企业认证的用户不能调用支付接口。", "只有通过企业认证的用户才能调用支付接口。", "zh", "entailed"),
    ("未通过企业认证的用户也能调用支付接口。", "只有通过企业认证的用户才能调用支付接口。", "zh",
     "insufficient"),
    ("通过企业认证的用户不能调用支付接口。", "只有通过企业认证的用户才能调用支付接口。", "zh",
     "insufficient"),
    ("Users who have not passed verification cannot call the payment API.",
     "Only users who have passed verification can call the payment API.", "en", "entailed"),
    ("Users who have not passed verification can call the payment API.",
     "Only users who have passed verification can call the payment API.", "en", "contradicted"),
    ("Пользователи, не прошедшие проверку, не могут вызывать платёжный API.",
     "Только пользователи, прошедшие проверку, могут вызывать платёжный API.", "ru", "entailed"),
    ("Пользователи, прошедшие проверку, не могут вызывать платёжный API.",
     "Только пользователи, прошедшие проверку, могут вызывать платёжный API.", "ru",
     "contradicted"),
    # `ограничена N` is `не более N`; `не позднее чем` is one bound; `через секунду` is 1 s
    ("Общая компенсация за месяц ограничена 30% месячной платы.",
     "Общая компенсация за месяц не может превышать 30% месячной платы.", "ru", "entailed"),
    ("Общая компенсация за месяц ограничена 30% месячной платы.",
     "Общая компенсация за месяц составляет не менее 30% месячной платы.", "ru", "contradicted"),
    ("Деньги возвращаются на ту же карту не позднее чем через 10 рабочих дней.",
     "Деньги возвращаются на ту же карту в срок не более 10 рабочих дней.", "ru", "entailed"),
    ("Повторить запрос можно не ранее чем через секунду.",
     "Повторить запрос можно не раньше чем через 1 секунду.", "ru", "entailed"),
    ("Повторить запрос можно не ранее чем через минуту.",
     "Повторить запрос можно не раньше чем через 1 секунду.", "ru", "contradicted"),
    # what happens upon an event (`при превышении`, `超出限制时`) follows it; not before it
    ("После превышения лимита API возвращает код 429.",
     "При превышении лимита API возвращает код 429.", "ru", "entailed"),
    ("До превышения лимита API возвращает код 429.",
     "При превышении лимита API возвращает код 429.", "ru", "insufficient"),
    ("超出限制后接口会返回错误码429。", "超出频率限制时，接口返回错误码429。", "zh", "entailed"),
    ("超出限制前接口会返回错误码429。", "超出频率限制时，接口返回错误码429。", "zh", "insufficient"),
    # an amount in brackets restates the bounded one; a negated bound is no content
    ("Суточная доза не должна превышать 8 таблеток.",
     "Суточная доза не должна превышать 4 г (8 таблеток).", "ru", "entailed"),
    ("Суточная доза должна превышать 8 таблеток.",
     "Максимальная суточная доза составляет 4 г (8 таблеток).", "ru", "contradicted"),
    ("The daily dose must exceed 8 tablets.", "The maximum daily dose is 4 g (8 tablets).",
     "en", "contradicted"),
    # a number the focus has only as another amount (`4 г`) bounds nothing of `4 часов`
    ("Суточная доза не должна превышать 8 таблеток, с интервалом не менее 4 часов.",
     "Максимальная суточная доза составляет 4 г (8 таблеток).", "ru", "insufficient"),
    # a verb in `-s` before a preposition, an irregular participle: verbs a paraphrase may
    # reword in place, counted in content words; never a noun of the same field
    ("If monthly availability drops below 99.9%, customers get a credit of 10%.",
     "If monthly availability falls below 99.9%, customers get a credit of 10%.", "en",
     "entailed"),
    ("If monthly availability rises above 99.9%, customers get a credit of 10%.",
     "If monthly availability falls below 99.9%, customers get a credit of 10%.", "en",
     "contradicted"),
    ("Staging backups are kept for no more than seven days.",
     "Backups of the staging environment are not retained beyond 7 days.", "en", "entailed"),
    ("Staging backups are compressed for no more than seven days.",
     "Backups of the staging environment are not retained beyond 7 days.", "en", "insufficient"),
    ("Models underestimate the carbon budget, he said.",
     "Models underestimate the carbon budget.", "en", "insufficient"),
    # `в сутки`, `в месяц` at a clause's end, `суточная` are rates; a rate is no duration
    ("Сервис доступен не менее 99,95% каждый месяц.",
     "Доступность сервиса составляет не менее 99,95% в месяц.", "ru", "entailed"),
    ("Сервис доступен не менее 99,95% каждую неделю.",
     "Доступность сервиса составляет не менее 99,95% в месяц.", "ru", "contradicted"),
    ("В сутки можно принять не больше 8 таблеток.",
     "Курс лечения без врача не должен превышать 3 дней.", "ru", "insufficient"),
    ("Суточная доза не должна превышать 8 таблеток.",
     "Ежемесячная доза не должна превышать 8 таблеток.", "ru", "contradicted"),
    ("Товар хранится на складе в течение суток.", "Товар хранится на складе 1 день.", "ru",
     "entailed"),
    # a permission that grants a benefit is an entitlement, stated plainly or not
    ("入职满一年的员工每年有5天带薪年假。", "员工入职满一年后，每年可享受5天带薪年假。", "zh", "entailed"),
    ("入职满一年的员工每年会有5天带薪年假。", "员工入职满一年后，每年可享受5天带薪年假。", "zh",
     "insufficient"),
    ("入职满一年的员工每年可能有5天带薪年假。", "员工入职满一年后，每年有5天带薪年假。", "zh", "entailed"),
    # `only with Y's approval` is `requires Y's approval`; another requirement is not
    ("During probation, taking leave requires the approval of the department head.",
     "During the probation period, leave can only be taken with the approval of the department "
     "head.", "en", "entailed"),
    ("During probation, leave must be taken.", "During the probation period, leave can only be "
     "taken with the approval of the department head.", "en", "insufficient"),
    ("请假超过三天的，需要人力资源部批准。", "请假超过3天须经人力资源部批准。", "zh", "entailed"),
    ("请假超过三天的，需要部门经理批准。", "请假超过3天须经人力资源部批准。", "zh", "insufficient"),
    ("请假超过三天的，必须休息。", "请假超过3天须经人力资源部批准。", "zh", "insufficient"),
    # a negated modal at its clause's end denies the infinitive the clause opens with
    ("Подниматься по лестнице пылесос не умеет.", "Пылесос не может подниматься по лестнице.",
     "ru", "entailed"),
    ("Подниматься по лестнице пылесос умеет.", "Пылесос не может подниматься по лестнице.",
     "ru", "contradicted"),
    # an amount that names another time (`十七岁的时候`) is no other value of the claim's now
    ("他三十岁了。", "他说是十七岁的时候开始工作的。", "zh", "insufficient"),
    ("他三十岁了。", "他今年十七岁。", "zh", "contradicted"),
    # a rate is another value of an amount per period (`every 12 hours`)
    ("Snapshots are taken every hour.", "Snapshots are taken every 12 hours.", "en",
     "contradicted"),
    # an identifier written as one word of another case is the same name (`Covid19`)
    ("COVID-19 infection began in Wuhan, China.",
     "Covid19 infection began in Wuhan (Hubei, China) in December, 2019.", "en", "entailed"),
    ("COVID-20 infection began in Wuhan, China.",
     "Covid19 infection began in Wuhan (Hubei, China) in December, 2019.", "en", "insufficient"),
    # one case of a Chinese `A或B` condition keeps it; 对于 and 先 are particles; 首次 is 第一次;
    # 功能不全 names a condition, it negates nothing
    ("对于战争造成的损失，保险公司不负责赔偿。", "因战争或被保险人故意行为造成的损失，保险公司不承担赔偿责任。",
     "zh", "entailed"),
    ("对于地震造成的损失，保险公司不负责赔偿。", "因战争或被保险人故意行为造成的损失，保险公司不承担赔偿责任。",
     "zh", "insufficient"),
    ("保险公司不承担赔偿责任。", "因战争或被保险人故意行为造成的损失，保险公司不承担赔偿责任。", "zh",
     "insufficient"),
    ("第一次使用之前，需要先把滤网外包装的塑料袋撕掉。", "首次使用前，请撕掉滤网外包装的塑料袋。", "zh",
     "entailed"),
    ("第二次使用之前，需要先把滤网外包装的塑料袋撕掉。", "首次使用前，请撕掉滤网外包装的塑料袋。", "zh",
     "insufficient"),
    ("严重肝功能不全者需在医生指导下减量使用。", "严重肝功能不全的患者应在医生指导下减量使用。", "zh",
     "entailed"),
    ("严重肝功能不全者不需减量使用。", "严重肝功能不全的患者应在医生指导下减量使用。", "zh", "insufficient"),
    # found on a new held-out set's first run: conditional other values, pairings and
    # negations a claim must keep, and ways of saying the same that are no clash
    ("Your damage excess is 750 EUR.", "The damage excess is 750 EUR, but it is reduced to "
     "250 EUR if you add the protection package.", "en", "insufficient"),
    ("Курьерская доставка по городу стоит 250 рублей.", "Курьерская доставка по городу стоит "
     "250 рублей и бесплатна для заказов от 2000 рублей.", "ru", "insufficient"),
    ("Adults pay 10 EUR.", "Adults pay 10 EUR and children under 12 pay 5 EUR.", "en",
     "entailed"),
    ("On Saturdays the space is open from 09:00 to 22:00.", "The space is open from 07:00 to "
     "22:00 on weekdays and from 09:00 to 18:00 on Saturdays.", "en", "insufficient"),
    ("On Saturdays the space is open from 9:00 to 18:00.", "The space is open from 07:00 to "
     "22:00 on weekdays and from 09:00 to 18:00 on Saturdays.", "en", "entailed"),
    ("Permit holders may park in spaces reserved for disabled drivers.", "Permit holders may "
     "park in their zone, but not in loading bays or in spaces reserved for disabled drivers.",
     "en", "contradicted"),
    ("Фотографии с разрешением ниже 1000 пикселей получатся нечёткими.",
     "Фотографии с разрешением ниже 1000 пикселей могут получиться нечёткими.", "ru",
     "insufficient"),
    ("Взрослые принимают не более 8 таблеток в сутки.",
     "Взрослые могут принимать не более 8 таблеток в сутки.", "ru", "entailed"),
    ("年满16周岁的用户就可以骑行。", "用户年满16周岁并完成实名认证后才能骑行。", "zh", "insufficient"),
    ("只有年满16周岁并完成实名认证的用户才能骑行。", "用户年满16周岁并完成实名认证后才能骑行。", "zh",
     "entailed"),
    ("蛋糕上至少可以写15个字。", "我们可以在蛋糕上写字，但字数不超过15个。", "zh", "contradicted"),
    ("You can reserve a car free of charge for as long as twenty minutes before your rental "
     "starts.", "A car can be reserved free of charge for up to 20 minutes before the rental "
     "starts.", "en", "entailed"),
    ("You can cancel at least 10 days before the start.", "You can cancel up to 10 days before "
     "the start.", "en", "entailed"),
    ("Calls should be taken in the phone booths, not at the shared desks.",
     "Phone calls should be taken in the phone booths rather than at the shared desks.", "en",
     "entailed"),
    ("Calls should be taken at the shared desks.",
     "Phone calls should be taken in the phone booths rather than at the shared desks.", "en",
     "contradicted"),
    ("The academy prefers OAE testing over audiometry.",
     "The academy prefers OAE testing rather than audiometry.", "en", "entailed"),
    ("Первые десять минут звонка ничего не стоят.", "Первые 10 минут звонка бесплатны.", "ru",
     "entailed"),
    ("Первые десять минут звонка стоят 15 рублей.", "Первые 10 минут звонка бесплатны.", "ru",
     "insufficient"),
    ("Сообщите о повреждении в течение двух суток.", "Сообщите о повреждении в течение 48 "
     "часов.", "ru", "entailed"),
    ("Сообщите о повреждении в течение трёх суток.", "Сообщите о повреждении в течение 48 "
     "часов.", "ru", "insufficient"),
    ("违规载人的用户会被扣5分信用分。", "车辆禁止载人，违规者将被扣除5分信用分。", "zh", "insufficient"),
    ("车辆可以载人。", "车辆禁止载人，违规者将被扣除5分信用分。", "zh", "contradicted"),
    ("Без консультации врача курс не должен превышать пяти дней.",
     "Без консультации врача препарат нельзя принимать дольше 3 дней как жаропонижающее и "
     "дольше 5 дней как обезболивающее.", "ru", "insufficient"),
    # a hedge on what is so (可能无法) stays a hedge; a negated restriction is `only if` only
    # against an `only`; `пока … не` is `before`; a price `за минуту` is a rate; the ends of
    # a range swapped between two subjects are other values
    ("顽固污渍无法完全清除。", "顽固污渍可能无法完全清除。", "zh", "insufficient"),
    ("顽固污渍可能无法完全清除。", "顽固污渍可能无法完全清除。", "zh", "entailed"),
    ("过期没有上完的课时不能退费。", "过期未上的课时不退费。", "zh", "entailed"),
    ("过期没有上完的课时可以退费。", "过期未上的课时不退费。", "zh", "contradicted"),
    ("Бесплатная отмена возможна, только пока заказ не передан в печать.",
     "Заказ можно отменить бесплатно только до того, как он передан в печать.", "ru",
     "entailed"),
    ("Бесплатная отмена возможна только после того, как заказ передан в печать.",
     "Заказ можно отменить бесплатно только до того, как он передан в печать.", "ru",
     "contradicted"),
    ("Пока мужчины не было, сосед забрал планшет.", "Сосед забрал планшет, пока мужчина был в "
     "палате.", "ru", "contradicted"),
    ("После первых 10 минут вы платите 15 рублей за минуту.",
     "Первые 10 минут бесплатны, далее минута стоит 15 рублей.", "ru", "insufficient"),
    ("Check-out is from 16:00 to 18:00.", "Check-in is between 08:00 and 11:00, and check-out "
     "is between 16:00 and 18:00.", "en", "entailed"),
    ("Check-out is between 08:00 and 11:00, and check-in is between 16:00 and 18:00.",
     "Check-in is between 08:00 and 11:00, and check-out is between 16:00 and 18:00.", "en",
     "contradicted"),
    # found on a second held-out set: a cap without an amount after the statement (但不超过…)
    # is dropped when the claim leaves out most of its words; 任意 is a universal on its noun
    ("已保价的快件丢失时，会按声明价值全额赔偿。", "已保价的快件如果丢失，按声明价值全额赔偿，但不超过物品的实际价值。",
     "zh", "insufficient"),
    ("已保价的快件丢失时，会按声明价值全额赔偿，但不超过实际价值。",
     "已保价的快件如果丢失，按声明价值全额赔偿，但不超过物品的实际价值。", "zh", "entailed"),
    ("充电宝可以归还到任意品牌的机柜。", "充电宝可以归还到同一品牌的任意机柜。", "zh", "insufficient"),
    ("充电宝可以归还到同一品牌的任意机柜。", "充电宝可以归还到同一品牌的任意机柜。", "zh", "entailed"),
    # `provided by` is a participle, no proviso; a consequence after `otherwise`/`иначе` is a
    # statement of its own unless a condition leads the rule (`если…, иначе`; 除非…否则)
    ("You must provide the vehicle registration certificate.", "Applicants must provide the "
     "vehicle registration certificate, and the vehicle must be a company car provided by "
     "their employer.", "en", "entailed"),
    ("You may enter.", "You may enter provided you have a ticket.", "en", "insufficient"),
    ("Вернуть снаряжение нужно до 19:00 в день окончания аренды.", "Снаряжение нужно вернуть "
     "до 19:00 в день окончания аренды, иначе начисляется плата за следующий день.", "ru",
     "entailed"),
    ("Плата за следующий день начисляется всегда.", "Снаряжение нужно вернуть до 19:00 в день "
     "окончания аренды, иначе начисляется плата за следующий день.", "ru", "insufficient"),
    ("退货运费由买家承担。", "除非商品存在质量问题，否则退货运费由买家承担。", "zh", "insufficient"),
    # `0.35 EUR` is money (a price verb may reword `is charged at`); a quantifier quantifies
    # its noun past an adjective (`every further page` / `each page`)
    ("Driving time costs 0.35 EUR per minute.", "Driving time is charged at 0.35 EUR per minute.",
     "en", "entailed"),
    ("Driving time costs 0.45 EUR per minute.", "Driving time is charged at 0.35 EUR per minute.",
     "en", "contradicted"),
    ("Every additional page costs 0.10 EUR.", "Each page costs 0.10 EUR.", "en", "insufficient"),
    ("Every page costs 0.10 EUR.", "Some pages cost 0.10 EUR.", "en", "insufficient"),
    ("Every MailNest account includes 15 GB of storage.", "Every free MailNest account "
     "includes 15 GB of storage.", "en", "insufficient"),
    # `but only after/with …` limits the clause before it; `дважды`/`twice` counts times;
    # `в первые 12 месяцев` bounds the period, `в течение первого года` restates it
    ("Отключить овердрафт можно в любой момент.", "Отключить овердрафт можно в любой момент, "
     "но только после полного погашения долга.", "ru", "insufficient"),
    ("Photography is allowed in the galleries.", "Photography is allowed in the galleries, but "
     "only without flash.", "en", "insufficient"),
    ("Министр не сообщила подробности.", "Министр не сообщила подробности, а лишь уточнила, что "
     "проверка продолжается.", "ru", "entailed"),
    # (`contradicted` since rules-3.7: `дважды` is read against `один раз`, the count of its
    # own unit, not against `2 дня`)
    ("Срок хранения можно продлить дважды.", "Срок хранения можно один раз продлить ещё на 2 "
     "дня.", "ru", "contradicted"),
    ("При расторжении договора нужно возместить стоимость монтажа.", "При расторжении в первые "
     "12 месяцев нужно возместить стоимость монтажа.", "ru", "insufficient"),
    ("При расторжении в течение первого года нужно возместить стоимость монтажа.",
     "При расторжении в первые 12 месяцев нужно возместить стоимость монтажа.", "ru",
     "entailed"),
    # `N и больше` / `N or longer` is one bound, no two clauses; `лишь в случае` is `только при`
    ("При аренде на 5 дней или дольше предоставляется скидка 20 процентов.",
     "При аренде на 5 дней и больше предоставляется скидка 20 процентов.", "ru", "entailed"),
    ("При аренде на 5 дней или меньше предоставляется скидка 20 процентов.",
     "При аренде на 5 дней и больше предоставляется скидка 20 процентов.", "ru", "contradicted"),
    ("Вернуть деньги за абонемент можно лишь в случае переезда в другой город.",
     "Деньги за абонемент возвращаются только при переезде в другой город.", "ru", "entailed"),
    ("Вернуть деньги за абонемент можно в случае переезда в другой город.",
     "Деньги за абонемент возвращаются только при переезде в другой город.", "ru",
     "insufficient"),
]  # fmt: skip


# The ninth round (`rules-3.5`): false accepts and false contradictions of a held-out set's
# first run, read as general rules (each with the guard that keeps it from over-reaching).
NINTH_ROUND = [
    # a rate (`每天`, `daily`) is a period of several units only when one is written as a period
    ("柜机24小时开放。", "柜机每天6:00至24:00开放。", "zh", "insufficient"),
    ("Backups run daily.", "Backups run every 24 hours.", "en", "entailed"),
    ("停车一天最多收40元。", "停车每天最高收费40元。", "zh", "entailed"),
    # `如无` / `如有` before a verb is `如果`: a condition the claim must keep
    ("押金在退房时全额退还。", "退房时如无物品损坏则全额退还押金。", "zh", "insufficient"),
    ("如有疑问，您可以拨打客服电话。", "如有疑问，请拨打客服电话。", "zh", "entailed"),
    ("房间四角都有插座。", "房间四角都有插座。", "zh", "entailed"),
    # a deadline counted from another event the evidence names
    ("The deposit is released within 14 days of pick-up.",
     "The deposit is taken at pick-up and released within 14 days of return.", "en", "insufficient"),
    ("The deposit is released within 14 days of return.",
     "The deposit is taken at pick-up and released within 14 days of return.", "en", "entailed"),
    ("You will get your refund within 14 days after we receive the item.",
     "Refunds are issued within 14 days of receiving the returned item.", "en", "entailed"),
    # `не ранее чем через N` is a lower bound; `no younger than` too
    ("Повторно купить препарат можно не позднее чем через 25 дней после покупки.",
     "Повторная покупка препарата возможна не ранее чем через 25 дней после покупки.", "ru",
     "contradicted"),
    ("Dogs must be no younger than 15 weeks.", "Dogs must be at least 15 weeks old.", "en",
     "entailed"),
    ("Dogs must be no older than 15 weeks.", "Dogs must be at least 15 weeks old.", "en",
     "contradicted"),
    # an amount of two units stays one amount: no value of its other half
    ("Children under 6 years and 6 months need a permit.",
     "Children younger than 6 years and 6 months need a permit.", "en", "entailed"),
    # insufficient until rules-3.12 (the bound phrases of `не менее чем через` changed how
    # the evidence's clause is bounded): the claim restates the evidence
    ("Детей младше шести лет и шести месяцев принимают только с разрешения.",
     "Детей, которым не исполнилось шести лет и шести месяцев, принимают только с разрешения.",
     "ru", "entailed"),
    # the end of a Chinese range of hours is in its start's part of the day
    ("如果您在下午2点到6点之间退房，需加收半天房费。", "14:00至18:00之间退房的，加收半天房费。", "zh",
     "entailed"),
    ("如果您在下午2点到5点之间退房，需加收半天房费。", "14:00至18:00之间退房的，加收半天房费。", "zh",
     "insufficient"),
    # a bound the focus also states plainly is no clear contradiction of another bound
    ("退票费最少收两元。", "退票费不足2元的，按2元收取。", "zh", "insufficient"),
    # 并不 negates
    ("停车场负责保管车辆。", "停车场并不负责保管车辆。", "zh", "contradicted"),
    ("停车场并不负责保管车辆。", "停车场不负责保管车辆。", "zh", "entailed"),
    # `а` sets two statements side by side: a claim joining one's subject to the other's value
    ("Входящие звонки стоят 15 рублей.",
     "Входящие звонки бесплатны, а каждый исходящий стоит 15 рублей.", "ru", "insufficient"),
    ("Каждый исходящий звонок стоит 15 рублей.",
     "Входящие звонки бесплатны, а каждый исходящий стоит 15 рублей.", "ru", "entailed"),
    ("Мужчина обокрал своего знакомого.",
     "Мужчина сначала поссорился с соседом, а потом обокрал своего знакомого.", "ru", "entailed"),
    # `between A and B` restates the bare range `A to B`
    ("Drivers between 21 and 24 pay a surcharge.", "Drivers aged 21 to 24 pay a surcharge.", "en",
     "entailed"),
    ("Drivers aged at least 21 pay a surcharge.", "Drivers aged 21 to 24 pay a surcharge.", "en",
     "insufficient"),
    # a claim of two statements rests on both clauses; price verbs with number words
    ("Пакеты недоступны, и за каждый мегабайт вы платите двести рублей.",
     "Пакеты недоступны, а каждый мегабайт стоит 200 рублей.", "ru", "entailed"),
    ("Звонок обойдётся вам в пятнадцать рублей за минуту.", "Звонки стоят 15 рублей в минуту.",
     "ru", "entailed"),
    ("Звонок обойдётся вам в пятнадцать рублей за минуту.", "Звонки стоят 19 рублей в минуту.",
     "ru", "contradicted"),
    # `в течение N … после X` is a deadline (`в течение N` alone may be how long it lasts)
    ("Решение принимается не позднее чем через три дня после подачи заявления.",
     "Решение принимается в течение трёх дней после подачи заявления.", "ru", "entailed"),
    ("Решение принимается не раньше чем через три дня после подачи заявления.",
     "Решение принимается в течение трёх дней после подачи заявления.", "ru", "contradicted"),
    ("Акция длится не более трёх дней.", "Акция длится в течение трёх дней.", "ru", "insufficient"),
    # 禁烟 is 禁止吸烟; 五角钱 is 0.5元; 午夜十二点 is 24:00
    ("客房内不能吸烟。", "所有客房均为禁烟房。", "zh", "entailed"),
    ("客房内可以吸烟。", "所有客房均为禁烟房。", "zh", "contradicted"),
    ("每12小时收五角钱保管费。", "每12小时收取0.5元保管费。", "zh", "entailed"),
    ("每12小时收五角钱保管费。", "每12小时收取5元保管费。", "zh", "contradicted"),
    ("柜机早上六点到午夜十二点开放。", "柜机每天6:00至24:00开放。", "zh", "entailed"),
    # a claim calling free what its evidence prices (and nowhere calls free)
    ("Alumni can join free of charge.", "Alumni can join for an annual fee of 60 pounds.", "en",
     "contradicted"),
    ("Alumni can join, but not free of charge.", "Alumni can join for an annual fee of 60 pounds.",
     "en", "insufficient"),
    ("Members can join free of charge.", "Members can join free of charge; guests pay 5 euros.",
     "en", "entailed"),
    ("SMS-уведомления бесплатны.", "SMS-уведомления стоят 69 рублей в месяц.", "ru",
     "contradicted"),
    # from a second held-out set (set 10): Russian `за N` is N ahead of the event
    ("Уведомить правление о ремонте нужно минимум за пять рабочих дней.",
     "О ремонте нужно уведомить правление не позднее чем за 5 рабочих дней.", "ru", "entailed"),
    ("Уведомить правление о ремонте нужно максимум за пять рабочих дней.",
     "О ремонте нужно уведомить правление не позднее чем за 5 рабочих дней.", "ru", "contradicted"),
    # `may be able to` is a chance, `can` a right
    ("You can arrange an instalment plan of up to 6 months.",
     "Customers may be able to arrange an instalment plan of up to 6 months.", "en",
     "insufficient"),
    ("You may be able to arrange an instalment plan of up to 6 months.",
     "Customers may be able to arrange an instalment plan of up to 6 months.", "en", "entailed"),
    # `нельзя без Y` is no reading of another exception of the rule
    ("Работающие приборы нельзя оставлять без присмотра.",
     "Не оставляйте работающие приборы без присмотра, за исключением приборов непрерывной работы.",
     "ru", "insufficient"),
    ("只有白天才能拍照。", "除白天外，不能拍照。", "zh", "entailed"),
    # the first number of a range takes the second's scale
    ("Штраф составляет от двух до пяти тысяч рублей.", "Штраф составляет от 2 000 до 5 000 рублей.",
     "ru", "entailed"),
    ("Штраф составляет от трёх до пяти тысяч рублей.", "Штраф составляет от 2 000 до 5 000 рублей.",
     "ru", "contradicted"),
    # one Chinese word found next door (two or three character pairs) makes no merged claim:
    # the next sentence's negation is not the claim's
    ("您可以通过个人所得税App办理汇算。",
     "纳税人可以通过个人所得税App、网页端办理，也可以到办税服务厅现场办理。年度综合所得收入不超过12万元且需要"
     "补税的纳税人，无需办理汇算。", "zh", "insufficient"),
    ("退房后押金会在三天内退还，发票可在前台领取。", "退房后押金将在3天内退还。发票可在前台领取。", "zh",
     "entailed"),
]  # fmt: skip


# The tenth round (`rules-3.6`): false accepts and false contradictions of held-out set 11,
# and the number readings behind them; each rule with a case it must leave alone.
TENTH_ROUND = [
    # `полутора` is 1.5 in every case but the nominative
    ("Пособие выплачивают до 18 месяцев.", "Пособие выплачивается до полутора лет.", "ru",
     "entailed"),
    ("Пособие выплачивают до 20 месяцев.", "Пособие выплачивается до полутора лет.", "ru",
     "insufficient"),
    # `за исключением` is a preposition (`except`), no `исключить` opposing `включить`
    ("Время отпуска включается в общий трудовой стаж.",
     "Время отпуска засчитывается в общий трудовой стаж, за исключением стажа, дающего право на "
     "отпуск.", "ru", "insufficient"),
    ("Время отпуска исключается из общего трудового стажа.",
     "Время отпуска включается в общий трудовой стаж.", "ru", "contradicted"),
    # a day named relative to an event is another day than the event's
    ("Гостевой пропуск можно заказать в день визита до 18:00.",
     "Гостевой пропуск заказывают не позднее 18:00 рабочего дня, предшествующего визиту.", "ru",
     "insufficient"),
    ("Гостевой пропуск заказывают до 18:00 рабочего дня, предшествующего визиту.",
     "Гостевой пропуск заказывают не позднее 18:00 рабочего дня, предшествующего визиту.", "ru",
     "entailed"),
    # a negation in a `…的` subject is not the rule's own: `除非Y，否则…不X` reads as `除Y外，…不X`
    ("除非遇到紧急情况，否则没有按时提交申请的，人力资源部不会办理休假手续。",
     "除紧急情况外，未按期提交申请的，人力资源部不予办理休假手续。", "zh", "insufficient"),
    ("没有按时提交申请的，人力资源部也会办理休假手续。",
     "除紧急情况外，未按期提交申请的，人力资源部不予办理休假手续。", "zh", "contradicted"),
    # `下午6:00` is 18:00; `十日`, `十册` are counts as `10日`, `10册` are
    ("工作日的接待时间是上午八点半到下午六点。", "工作日访客接待时间为上午8:30至下午6:00。", "zh",
     "entailed"),
    ("员工可以在10日内申请复核。", "员工可以在十日内申请复核。", "zh", "entailed"),
    ("每位读者最多可借12册。", "每位读者同时在借的图书不超过十册。", "zh", "contradicted"),
    # a comparison with a thing, no number: its negation is compared as a bound's would be
    ("单册滞纳金不会超过图书定价。", "单册滞纳金最多不超过图书定价。", "zh", "entailed"),
    ("滞纳金超过图书定价。", "滞纳金不超过图书定价。", "zh", "contradicted"),
    ("The fee can exceed the list price.", "The fee does not exceed the list price.", "en",
     "contradicted"),
    ("Штраф может превышать стоимость книги.", "Штраф не превышает стоимости книги.", "ru",
     "contradicted"),
    # 都 after an earlier clause naming every case or an exception agrees with it
    ("除非是持有施工许可证的施工人员，访客都不能进入设备间。",
     "除持有施工许可证的施工人员外，访客不得进入设备间。", "zh", "entailed"),
    ("员工都可以申请临时扩容。", "近三十天内没有违规记录的员工可以申请临时扩容。", "zh",
     "insufficient"),
    # `twice a month` counts times in a month, not two months
    ("Запись закрывается, если вы два раза за месяц не придёте.",
     "Запись закрывается, если пациент дважды за месяц не пришёл.", "ru", "entailed"),
    ("Запись закрывается, если вы три раза за месяц не придёте.",
     "Запись закрывается, если пациент дважды за месяц не пришёл.", "ru", "contradicted"),
    ("Take it twice a day.", "Take it two times a day.", "en", "entailed"),
    ("Take it twice a week.", "Take it twice a day.", "en", "contradicted"),
    # `если только … не` is `unless`: its `только` restricts nothing
    ("Дубликат стоит пятьсот рублей, если только пропуск не сломался.",
     "Дубликат стоит 500 рублей, кроме случаев, когда пропуск сломался.", "ru", "entailed"),
    ("Дубликат стоит пятьсот рублей, если пропуск сломался.",
     "Дубликат стоит 500 рублей, кроме случаев, когда пропуск сломался.", "ru", "insufficient"),
    # `с половиной`, `and a half`
    ("Суточные составляют две с половиной тысячи рублей в день.",
     "Суточные составляют 2 500 рублей в день.", "ru", "entailed"),
    ("The session lasts three and a half hours.", "The session lasts 2.5 hours.", "en",
     "contradicted"),
    # a negation passes over `eligible` to what it denies
    ("Contractors are eligible for paid parental leave.",
     "Contractors and interns are not eligible for paid parental leave.", "en", "contradicted"),
    ("Contractors are not eligible for paid parental leave.",
     "Contractors and interns are not eligible for paid parental leave.", "en", "entailed"),
    # `one` before a noun the evidence counts with another number
    ("A request to the export endpoint counts as just one request against the quota.",
     "Requests to the export endpoint count as 10 requests each against the quota.", "en",
     "insufficient"),
    ("Each user can open one ticket.", "Each user can open one ticket per day.", "en",
     "entailed"),
    # `No X may …` is `X may not …`: the negation governs the bound
    ("You can't be scheduled for more than two shifts in any six-week period.",
     "No engineer may be scheduled for more than 2 shifts in any 6-week period.", "en",
     "entailed"),
    ("Engineers can be scheduled for more than two shifts in a six-week period.",
     "No engineer may be scheduled for more than 2 shifts in any 6-week period.", "en",
     "contradicted"),
    # an outcome is no paraphrase of a process; a word after a determiner is a noun
    ("Quota increases are approved within 3 business days.",
     "Quota increases are reviewed by the Developer Relations team within 3 business days.", "en",
     "insufficient"),
    ("The on-call stipend depends on how many pages an engineer receives.",
     "Engineers receive an on-call stipend of 400 euros per shift, regardless of the number of "
     "pages.", "en", "insufficient"),
    # `X, but Y …`: a claim joining the first clause's predicate to the second's thing
    ("On flights of 6 hours or longer, employees may book business class.",
     "For flights of 6 hours or longer, employees may book premium economy, but business class "
     "requires approval from a Vice President.", "en", "insufficient"),
    ("On flights of 6 hours or longer, employees may book premium economy.",
     "For flights of 6 hours or longer, employees may book premium economy, but business class "
     "requires approval from a Vice President.", "en", "entailed"),
    # `at most` and `at least` are bounds, compared as bounds, not antonyms
    ("You can divide your leave into at most two blocks, and each one has to last two weeks or "
     "more.", "Leave may be split into no more than two separate blocks, and each block must last "
     "at least 2 weeks.", "en", "entailed"),
    ("You can divide your leave into at least two blocks.",
     "Leave may be split into no more than two separate blocks.", "en", "contradicted"),
    # `per-minute` is a rate as `per minute` is
    ("Exceeding the daily quota makes the API return HTTP 429.",
     "When a key exceeds its per-minute limit, the API returns HTTP status 429.", "en",
     "contradicted"),
    ("Exceeding the per-minute limit makes the API return HTTP 429.",
     "When a key exceeds its per-minute limit, the API returns HTTP status 429.", "en",
     "entailed"),
    # `hasn't` negates; `no one` is `nobody`
    ("The primary has acknowledged the page.", "The primary hasn't acknowledged the page.", "en",
     "contradicted"),
    ("You can renew it once if nobody has reserved the item.",
     "A loan can be renewed once, provided that no one else has reserved the item.", "en",
     "entailed"),
]  # fmt: skip


ELEVENTH_ROUND = [
    # a claim keeping one of two required conditions makes it enough
    (
        "Если вы не пришли на занятие, онлайн-запись для вас заблокируют на 7 дней.",
        "Если участник не пришёл на занятие и не отменил запись, онлайн-запись для него "
        "блокируется на 7 дней.",
        "ru",
        "insufficient",
    ),
    (
        "If you miss a class, your booking is suspended for 7 days.",
        "If a member misses a class and does not cancel the booking, online booking is "
        "suspended for 7 days.",
        "en",
        "insufficient",
    ),
    (
        "If a member misses a class and does not cancel the booking, online booking is "
        "suspended for seven days.",
        "If a member misses a class and does not cancel the booking, online booking is "
        "suspended for 7 days.",
        "en",
        "entailed",
    ),
    # what a passive prohibition forbids is its subject, as `is not allowed` does
    (
        "You are not allowed to eat, drink or apply cosmetics in the laboratory.",
        "Eating, drinking and applying cosmetics are prohibited in the laboratory.",
        "en",
        "entailed",
    ),
    (
        "Smoking is not allowed on the premises.",
        "Smoking is prohibited on the premises.",
        "en",
        "entailed",
    ),
    (
        "Smoking is allowed on the premises.",
        "Smoking is prohibited on the premises.",
        "en",
        "contradicted",
    ),
    (
        "Pets are not permitted in the rooms.",
        "Pets are allowed in the rooms.",
        "en",
        "contradicted",
    ),
    # a restriction the claim makes (`только если`) is the exception a prohibition makes
    (
        "Оставлять личные вещи в шкафчике на ночь допускается, только если это арендованный "
        "именной шкафчик.",
        "Оставлять личные вещи в шкафчиках на ночь запрещено, за исключением арендованных "
        "именных шкафчиков.",
        "ru",
        "entailed",
    ),
    (
        "Оставлять личные вещи в шкафчиках на ночь можно.",
        "Оставлять личные вещи в шкафчиках на ночь запрещено, за исключением арендованных "
        "именных шкафчиков.",
        "ru",
        "contradicted",
    ),
    # `отсутствие X` negates X as `нет X` does
    (
        "Студенту необходимо подтвердить в библиотеке, что у него нет задолженности.",
        "Студент должен подтвердить в библиотеке отсутствие задолженности.",
        "ru",
        "entailed",
    ),
    (
        "Студенту необходимо подтвердить в библиотеке наличие задолженности.",
        "Студент должен подтвердить в библиотеке отсутствие задолженности.",
        "ru",
        "contradicted",
    ),
    # a span of dates the evidence states in two clauses is no clash of its day numbers
    (
        "Registration is open from 1 February 2026 until 15 May 2026.",
        "Registration opens on 1 February 2026 and closes on 15 May 2026.",
        "en",
        "insufficient",
    ),
    (
        "Registration opens on 15 May 2026.",
        "Registration opens on 1 February 2026 and closes on 15 May 2026.",
        "en",
        "contradicted",
    ),
    (
        "Registration is open from 1 February 2026 until 25 May 2026.",
        "Registration opens on 1 February 2026 and closes on 15 May 2026.",
        "en",
        "contradicted",
    ),
    # 会 in 会员 is a member, not `will`
    (
        "会员卡自激活起有效期为一年，会员每天最多入场两次，每次停留不超过3小时。",
        "会员卡自激活之日起生效，有效期为十二个月。会员每天最多可以入场两次，每次停留不超过3小时。",
        "zh",
        "entailed",
    ),
    ("会员每天最多会入场两次。", "会员每天最多可以入场两次。", "zh", "insufficient"),
    # `plans` the noun hedges nothing; `plans to` does
    (
        "The Standard plan is 39 euros per month.",
        "Riverside Fitness offers two membership plans, the Standard plan at 39 euros per month.",
        "en",
        "entailed",
    ),
    (
        "The city will open a new library.",
        "The city plans to open a new library.",
        "en",
        "insufficient",
    ),
    # a plain `unless` takes out what `except` does
    (
        "New members pay a joining fee of 25 euros unless they are students.",
        "New members pay a joining fee of 25 euros, except students.",
        "en",
        "entailed",
    ),
    (
        "New members pay a joining fee of 25 euros unless they are pensioners.",
        "New members pay a joining fee of 25 euros, except students.",
        "en",
        "insufficient",
    ),
    (
        "Flagged footage is deleted after 30 days.",
        "Footage is deleted after 30 days unless it has been flagged.",
        "en",
        "insufficient",
    ),
    # `每晚23点` is `每天晚上23点`; `五十度` is `50度` (not `一度`, at one time)
    ("宿舍楼大门每天晚上11点关闭。", "宿舍楼大门每晚23点关闭。", "zh", "entailed"),
    ("宿舍楼大门每天晚上10点关闭。", "宿舍楼大门每晚23点关闭。", "zh", "insufficient"),
    (
        "每间宿舍每个月有五十度的免费用电额度。",
        "每间宿舍每月的免费用电额度为50度。",
        "zh",
        "entailed",
    ),
    (
        "每间宿舍每个月有六十度的免费用电额度。",
        "每间宿舍每月的免费用电额度为50度。",
        "zh",
        "contradicted",
    ),
    # an order word governs each of a coordination
    (
        "Подтвердить в библиотеке отсутствие задолженности студент должен после отчисления.",
        "Перед окончанием обучения или отчислением студент должен подтвердить в библиотеке "
        "отсутствие задолженности.",
        "ru",
        "contradicted",
    ),
    (
        "Unplug the device, then clean it.",
        "Before cleaning or servicing the device, unplug it.",
        "en",
        "entailed",
    ),
    # `ни одной комнаты` is none, not a count of one; `only some` denies the rest of `all`
    (
        "На третьем этаже нет ни одной комнаты, оборудованной для студентов.",
        "Некоторые комнаты на третьем этаже оборудованы для студентов.",
        "ru",
        "contradicted",
    ),
    (
        "The third floor does not have a single room equipped for students with disabilities.",
        "Some rooms on the third floor are equipped for students with disabilities.",
        "en",
        "contradicted",
    ),
    (
        "Инструктаж обязателен только для некоторых проживающих.",
        "Все проживающие обязаны пройти инструктаж.",
        "ru",
        "contradicted",
    ),
    (
        "Some residents must attend the fire safety briefing.",
        "All residents must attend the fire safety briefing.",
        "en",
        "insufficient",
    ),
    # an amount is read against the sentence's amounts of its own unit
    (
        "The young-driver surcharge is 25 euros per day.",
        "Drivers under 25 pay a young-driver surcharge of 15 euros per day.",
        "en",
        "contradicted",
    ),
    (
        "因身体原因需要延缓入学的，最长可以延缓两年。",
        "因身体原因需要延缓入学的，须提交二级以上医院的证明，最长可延缓一年。",
        "zh",
        "contradicted",
    ),
    (
        "因身体原因需要延缓入学的，最长可以延缓一年。",
        "因身体原因需要延缓入学的，须提交二级以上医院的证明，最长可延缓一年。",
        "zh",
        "entailed",
    ),
    # `may X without Y` against the evidence's `X only with Y`
    (
        "You may take the car outside Portugal and Spain without written permission.",
        "The car may not be taken outside Portugal and Spain without written permission from "
        "Costa Rentals.",
        "en",
        "contradicted",
    ),
    (
        "You cannot take the car outside Portugal and Spain without written permission.",
        "The car may not be taken outside Portugal and Spain without written permission from "
        "Costa Rentals.",
        "en",
        "entailed",
    ),
    # `per X` distributes as `for each X`; `or else` is `otherwise`
    (
        "Basic insurance has an excess of 1,200 euros for each damage claim.",
        "Basic insurance is included, with an excess of 1,200 euros per damage claim.",
        "en",
        "entailed",
    ),
    (
        "You must return the car full, or else a refuelling charge of 3 euros per litre applies.",
        "The car must be returned full, otherwise a refuelling charge of 3 euros per litre "
        "applies.",
        "en",
        "entailed",
    ),
    # a limit, like a maximum, bounds the amount it is given (and is no content word then)
    (
        "Суточный лимит пробега — 300 километров.",
        "Суточный пробег ограничен 300 километрами.",
        "ru",
        "entailed",
    ),
    ("The daily mileage limit is 300 km.", "Daily mileage is capped at 300 km.", "en", "entailed"),
    (
        "The minimum daily mileage is 300 km.",
        "Daily mileage is capped at 300 km.",
        "en",
        "contradicted",
    ),
    ("The daily mileage is 300 km.", "Daily mileage is capped at 300 km.", "en", "insufficient"),
    # `opens at A and closes at B` is `open from A to B`
    (
        "On weekdays the club opens at 6 am and closes at 10 pm.",
        "The club is open from 06:00 to 22:00 on weekdays and from 08:00 to 20:00 on weekends.",
        "en",
        "entailed",
    ),
    (
        "On weekdays the club opens at 06:00 and closes at 20:00.",
        "The club is open from 06:00 to 22:00 on weekdays and from 08:00 to 20:00 on weekends.",
        "en",
        "contradicted",
    ),
    (
        "По будням бассейн открывается в 7:00 и закрывается в 22:00.",
        "Бассейн открыт по будням с 7:00 до 22:00.",
        "ru",
        "entailed",
    ),
    # `单次` is `一次`, a single time
    (
        "除导出接口外，一次批量查询最多能查100条记录。",
        "单次批量查询最多支持100条记录，导出接口除外。",
        "zh",
        "entailed",
    ),
    (
        "除导出接口外，一次批量查询最多能查200条记录。",
        "单次批量查询最多支持100条记录，导出接口除外。",
        "zh",
        "contradicted",
    ),
    # an amount covers the sentence stating it in another unit (`one day`, `24-hour period`):
    # the claim rests on that sentence, not on one sharing a bare `one`
    (
        "You should take no more than six tablets in one day.",
        "Adults may take one or two tablets every 4 to 6 hours. Do not take more than 6 "
        "tablets in any 24-hour period. Leave at least 4 hours between doses.",
        "en",
        "entailed",
    ),
    (
        "You should take no more than eight tablets in one day.",
        "Adults may take one or two tablets every 4 to 6 hours. Do not take more than 6 "
        "tablets in any 24-hour period. Leave at least 4 hours between doses.",
        "en",
        "contradicted",
    ),
    # a Russian verb the evidence does not state is no paraphrase of the clause's one other
    # verb, however long the claim (tried in this round and reverted: it accepted 41 of 60
    # one-verb swaps of a probe set, `продаются` for `выдаются`, `начинается` for
    # `заканчивается`)
    (
        "Гостевые пропуска в тренажёрный зал продаются администратором на стойке регистрации "
        "не чаще двух раз в месяц.",
        "Гостевые пропуска в тренажёрный зал выдаются администратором на стойке регистрации не "
        "чаще двух раз в месяц.",
        "ru",
        "insufficient",
    ),
    (
        "Посадка на рейс начинается за двадцать минут до времени вылета, указанного в билете.",
        "Посадка на рейс заканчивается за двадцать минут до времени вылета, указанного в билете.",
        "ru",
        "insufficient",
    ),
    # ... where one case of several may be kept
    (
        "If your card is lost, it is blocked within one hour.",
        "If a card is lost or stolen, it is blocked within one hour.",
        "en",
        "entailed",
    ),
    # a sentence that bounds one number both ways, one case per clause, leaves open which
    # clause a claim rests on: no contradiction ...
    (
        "体重不超过30公斤的2至12岁儿童，每次服用半片，每天一次。",
        "2至12岁儿童体重超过30公斤者，一次1片，一日1次；体重不超过30公斤者，一次半片，一日1次。",
        "zh",
        "insufficient",
    ),
    # ... where a sentence bounding it one way still contradicts the other bound
    (
        "体重不超过30公斤的儿童，每次服用一片。",
        "体重超过30公斤的儿童，每次服用一片。",
        "zh",
        "contradicted",
    ),
    # the claim's bound names the clause it is about; words of the other clause are mixed in
    (
        "Children over 30 kg take half a tablet.",
        "Children of 30 kg or less take half a tablet, and children over 30 kg take one tablet.",
        "en",
        "insufficient",
    ),
    (
        "Children over 30 kg take one tablet.",
        "Children of 30 kg or less take half a tablet, and children over 30 kg take one tablet.",
        "en",
        "entailed",
    ),
    (
        "Parcels over 2 kg cost 5 euros to ship.",
        "Parcels up to 2 kg ship for 3 euros, while parcels over 2 kg cost 5 euros.",
        "en",
        "entailed",
    ),
]


# Twelfth round (rules-3.8): each rule beside the guard that keeps it from accepting more.
TWELFTH_ROUND = [
    (
        "Срок хранения ежедневных копий составляет 35 дней.",
        "Ежедневные копии хранятся 35 дней.",
        "ru",
        "entailed",
    ),
    ("全量备份的保存期限为三十天。", "全量备份保留30天，增量备份保留7天。", "zh", "entailed"),
    ("The trial period is 35 days.", "Daily backups are kept for 35 days.", "en", "insufficient"),
    (
        "The retention period for daily backups is 36 days.",
        "Daily backups are kept for 35 days, and monthly backups are kept for 12 months.",
        "en",
        "contradicted",
    ),
    ("整机保修两年。", "整机保修两年，滤网属于耗材，不在保修范围内。", "zh", "entailed"),
    ("滤网在保修范围内。", "整机保修两年，滤网属于耗材，不在保修范围内。", "zh", "contradicted"),
    (
        "Additional drivers can be registered through the app for 8 euros per day each.",
        "Additional drivers can be registered at the counter for 8 euros per day each and must meet the same age and licence requirements.",
        "en",
        "insufficient",
    ),
    ("The app keeps your data for 30 days.", "Your data is kept for 30 days.", "en", "entailed"),
    (
        "Most people get soreness, redness or swelling at the injection site.",
        "Soreness, redness or swelling at the injection site occurs in about 1 in 10 people and typically resolves within 2 days.",
        "en",
        "contradicted",
    ),
    (
        "Большинство пациентов отмечают головную боль.",
        "Головная боль возникает у 5 из 100 пациентов.",
        "ru",
        "contradicted",
    ),
    (
        "Most scientists expect moderate effects.",
        "Catastrophic effects would likely be observed according to 41%, while 44% thought the effects would be moderate.",
        "en",
        "insufficient",
    ),
    (
        "Clients should wait no more than the number of seconds given in Retry-After before retrying.",
        "Clients should wait at least the number of seconds given in Retry-After before sending the next request.",
        "en",
        "insufficient",
    ),
    (
        "Clients should wait at least the number of seconds given in Retry-After before retrying.",
        "Clients should wait at least the number of seconds given in Retry-After before sending the next request.",
        "en",
        "entailed",
    ),
    (
        "Лимит на снятие наличных составляет 150 000 рублей в месяц.",
        "Лимит на снятие наличных составляет 150 000 рублей в сутки и 600 000 рублей в месяц.",
        "ru",
        "insufficient",
    ),
    (
        "Лимит на снятие наличных составляет 150 000 рублей в сутки.",
        "Лимит на снятие наличных составляет 150 000 рублей в сутки и 600 000 рублей в месяц.",
        "ru",
        "entailed",
    ),
    (
        "You may leave your pet alone in the room only if it's kept in a closed travel crate.",
        "Pets must not be left alone in the room unless they are kept in a closed travel crate.",
        "en",
        "entailed",
    ),
    (
        "You're liable for any damage your pet causes.",
        "Guests are liable for any damage caused by their pets.",
        "en",
        "entailed",
    ),
    (
        "Your daily quota resets at midnight UTC.",
        "Daily quotas reset at 00:00 UTC.",
        "en",
        "entailed",
    ),
    (
        "Daily quotas reset at midnight UTC.",
        "Daily quotas reset at 12:00 UTC.",
        "en",
        "insufficient",
    ),
    ("Бассейн работает до полуночи.", "Бассейн работает с 06:00 до 24:00.", "ru", "entailed"),
    (
        "Rentals of a week or longer include unlimited mileage.",
        "Rentals of 7 days or more include unlimited mileage.",
        "en",
        "entailed",
    ),
    (
        "Rentals of a week or less include unlimited mileage.",
        "Rentals of 7 days or more include unlimited mileage.",
        "en",
        "insufficient",
    ),
    (
        "体重10到15公斤的儿童一次用量为4毫升。",
        "体重10至15千克的儿童，一次用量为4毫升。",
        "zh",
        "entailed",
    ),
    (
        "体重10到20公斤的儿童一次用量为4毫升。",
        "体重10至15千克的儿童，一次用量为4毫升。",
        "zh",
        "insufficient",
    ),
    ("病理报告可能要五到七个工作日。", "病理报告可能需要5至7个工作日。", "zh", "entailed"),
    ("病理报告可能要五到八个工作日。", "病理报告可能需要5至7个工作日。", "zh", "contradicted"),
    (
        "除了导盲犬以外，您不能携带任何动物进站乘车。",
        "除导盲犬外，乘客不得携带动物进站乘车。",
        "zh",
        "entailed",
    ),
    (
        "沙箱环境的调用不计入任何配额。",
        "沙箱环境的调用不计入正式环境的配额。",
        "zh",
        "insufficient",
    ),
    (
        "乘客可以携带任何动物进站乘车。",
        "除导盲犬外，乘客不得携带动物进站乘车。",
        "zh",
        "contradicted",
    ),
    (
        "您可以在一周内到任意一个车站的客服中心办理退还。",
        "乘客可在7日内到任一车站客服中心办理车票退还。",
        "zh",
        "entailed",
    ),
    (
        "请您在预约时段开始前半小时到候诊区签到。",
        "患者应在预约时段开始前30分钟到达候诊区签到。",
        "zh",
        "entailed",
    ),
    (
        "驾校的报名受理时间是工作日上午九点到下午五点。",
        "驾校在工作日9:00至17:00受理报名。",
        "zh",
        "entailed",
    ),
    (
        "Support hours are 08:00 to 19:00 on business days.",
        "Support is available on business days from 08:00 to 18:00.",
        "en",
        "insufficient",
    ),
    (
        "Часы работы поддержки — с 9:00 до 18:00 по будням.",
        "Поддержка работает по будням с 9:00 до 18:00.",
        "ru",
        "entailed",
    ),
    (
        "Пауэрбанк ёмкостью свыше 160 Вт·ч к перевозке не примут.",
        "Пауэрбанки ёмкостью более 160 Вт·ч к перевозке не принимаются.",
        "ru",
        "entailed",
    ),
    (
        "Пауэрбанк ёмкостью свыше 160 Вт·ч к перевозке примут.",
        "Пауэрбанки ёмкостью более 160 Вт·ч к перевозке не принимаются.",
        "ru",
        "contradicted",
    ),
    (
        "Ручную кладь весом до 10 кг включительно провозят бесплатно.",
        "Ручная кладь весом не более 10 кг провозится бесплатно.",
        "ru",
        "entailed",
    ),
    (
        "Генеральная уборка комнаты проводится самими жильцами раз в 14 дней.",
        "Генеральную уборку комнаты жильцы проводят раз в 14 дней.",
        "ru",
        "entailed",
    ),
    (
        "Заблокировать карту вы можете в любое время суток.",
        "Заблокировать карту можно круглосуточно.",
        "ru",
        "entailed",
    ),
    ("Support is available 24/7.", "Support is available around the clock.", "en", "entailed"),
    (
        "Support is available around the clock.",
        "Support is available from 08:00 to 18:00.",
        "en",
        "insufficient",
    ),
    (
        "Перевыпустить карту можно бесплатно.",
        "Перевыпуск карты производится бесплатно.",
        "ru",
        "entailed",
    ),
    (
        "Гарантийный срок на сам пылесос составляет два года.",
        "Гарантия на пылесос составляет 24 месяца, на аккумулятор — 12 месяцев.",
        "ru",
        "entailed",
    ),
    ("Daily quotas reset at 00:00 UTC.", "Daily quotas reset at 12:00 UTC.", "en", "insufficient"),
    (
        "Без консультации врача лечение не должно длиться дольше недели.",
        "Без консультации врача продолжительность лечения не должна превышать 7 дней.",
        "ru",
        "entailed",
    ),
    (
        "Без консультации врача принимать сироп можно не дольше недели.",
        "Без консультации врача продолжительность лечения не должна превышать 7 дней.",
        "ru",
        "insufficient",
    ),
    (
        "Bulk export calls don't count toward the per-minute limit, but each one uses up 100 requests of your daily quota.",
        "The bulk export endpoint is excluded from the per-minute limit but counts as 100 requests against the daily quota for each call.",
        "en",
        "insufficient",
    ),
    (
        "Bulk export calls don't count toward the daily quota.",
        "The bulk export endpoint counts as 100 requests against the daily quota for each call.",
        "en",
        "contradicted",
    ),
    (
        "Bulk export calls do not count against the daily quota.",
        "The bulk export endpoint is excluded from the per-minute limit but counts as 100 requests against the daily quota for each call.",
        "en",
        "contradicted",
    ),
    (
        "The kitchen is cleaned once a day.",
        "The kitchen is cleaned twice a day, but members are asked to wash their own mugs and dishes.",
        "en",
        "contradicted",
    ),
    (
        "The kitchen is cleaned twice a day.",
        "The kitchen is cleaned twice a day, but members are asked to wash their own mugs and dishes.",
        "en",
        "entailed",
    ),
    (
        "If you have completed a credit check, you can get an instalment plan.",
        "Instalment plans are available only to patients who have completed a credit check.",
        "en",
        "insufficient",
    ),
    (
        "Instalment plans are available only to patients who have completed a credit check.",
        "Instalment plans are available only to patients who have completed a credit check.",
        "en",
        "entailed",
    ),
    (
        "所有费用可以在治疗结束后再到收费处缴纳。",
        "所有费用须在治疗前到收费处缴纳，治疗结束后可凭缴费单据开具发票。",
        "zh",
        "contradicted",
    ),
    (
        "所有费用须在治疗前到收费处缴纳。",
        "所有费用须在治疗前到收费处缴纳，治疗结束后可凭缴费单据开具发票。",
        "zh",
        "entailed",
    ),
    (
        "拔牙后出现持续出血时，应联系儿童口腔科。",
        "拔牙后如出现持续出血或剧烈疼痛，请在工作时间内联系口腔外科。14岁以下儿童就诊须由监护人陪同，并由儿童口腔科接诊。",
        "zh",
        "insufficient",
    ),
    (
        "拔牙后出现持续出血时，应联系口腔外科。",
        "拔牙后如出现持续出血或剧烈疼痛，请在工作时间内联系口腔外科。14岁以下儿童就诊须由监护人陪同，并由儿童口腔科接诊。",
        "zh",
        "entailed",
    ),
    (
        "If bleeding continues after an extraction, contact the paediatric dentistry team.",
        "If bleeding continues after an extraction, contact oral surgery during working hours. Children under 14 must be accompanied by a guardian and are seen by the paediatric dentistry team.",
        "en",
        "insufficient",
    ),
    (
        "If bleeding continues after an extraction, contact oral surgery.",
        "If bleeding continues after an extraction, contact oral surgery during working hours. Children under 14 must be accompanied by a guardian and are seen by the paediatric dentistry team.",
        "en",
        "entailed",
    ),
    (
        "储物柜只能当天使用，闭馆后还没清空的柜内物品会被前台统一清理并保管七天。",
        "储物柜仅限当日使用，闭馆后仍未清空的柜内物品由前台统一清理并保管7天。",
        "zh",
        "entailed",
    ),
    (
        "快递员可以先封箱，之后再当面验视物品。",
        "寄件人须出示有效身份证件，快递员当面验视物品后方可封箱。",
        "zh",
        "contradicted",
    ),
    (
        "快递员要先当面验视物品，然后才能封箱。",
        "寄件人须出示有效身份证件，快递员当面验视物品后方可封箱。",
        "zh",
        "entailed",
    ),
    (
        "Оплатить заказ картой или наличными при получении можно, только если он стоит не дороже 100 000 рублей.",
        "Оплата при получении возможна картой или наличными, за исключением заказов дороже 100 000 рублей, которые оплачиваются только онлайн.",
        "ru",
        "insufficient",
    ),
    (
        "You can pay on delivery only if the order costs more than 500 euros.",
        "Payment on delivery is possible, except for orders over 500 euros.",
        "en",
        "insufficient",
    ),
    (
        "If your fever is above 38 degrees Celsius, you should put off vaccination until you've recovered.",
        "People with a fever above 38 degrees Celsius should postpone vaccination until they have recovered, but a mild cold is not a reason to delay.",
        "en",
        "entailed",
    ),
    (
        "The club may cancel a class at short notice.",
        "The club can call off a class at short notice.",
        "en",
        "entailed",
    ),
    (
        "The club can put off a class at short notice.",
        "The club may cancel a class at short notice.",
        "en",
        "insufficient",
    ),
    (
        "Applications may be turned up without a reason.",
        "Applications may be rejected without a reason.",
        "en",
        "insufficient",
    ),
    (
        "您如果要报名学小型汽车驾驶，年龄需要在十八周岁到七十周岁之间。",
        "报名学习小型汽车驾驶的学员须年满18周岁，且不超过70周岁。",
        "zh",
        "entailed",
    ),
    (
        "The average age of members is 40 years.",
        "Members must be at least 18 years old.",
        "en",
        "insufficient",
    ),
    (
        "在付费区停留超过四小时出站，或者因车票遗失而无法出站，都要按线网单程最高票价补交费用。",
        "乘客在付费区内停留时间不得超过4小时，超时出站须按线网单程最高票价补交超时车费。乘客因车票遗失无法出站的，须按线网单程最高票价补票。",
        "zh",
        "insufficient",
    ),
    (
        "乘客可以在付费区内停留超过4小时。",
        "乘客在付费区内停留时间不得超过4小时，超时出站须按线网单程最高票价补交超时车费。",
        "zh",
        "contradicted",
    ),
    (
        "You may take more than 8 tablets a day.",
        "You must not exceed 8 tablets a day.",
        "en",
        "contradicted",
    ),
    (
        "派送两次都没成功的快件会被退回寄件网点保存一周。",
        "快件派送两次未成功的，将退回寄件网点保存7天，逾期退回寄件人。",
        "zh",
        "entailed",
    ),
    (
        "所有快件都会被退回寄件网点保存一周。",
        "快件派送两次未成功的，将退回寄件网点保存7天。",
        "zh",
        "insufficient",
    ),
    (
        "六个月以下的婴儿禁止使用本品。",
        "6个月以下婴儿禁用本品，6个月至1岁的婴儿应在医师指导下使用。",
        "zh",
        "entailed",
    ),
    (
        "You can bring a guest along up to four times in a calendar year.",
        "Members may bring a guest up to four times per calendar year.",
        "en",
        "entailed",
    ),
    (
        "Доступность сервиса гарантируется на уровне 99,9 % в месяц.",
        "Гарантированная доступность сервиса составляет 99,9 % в месяц.",
        "ru",
        "entailed",
    ),
    (
        "Доступность сервиса гарантируется на уровне 99,5 % в месяц.",
        "Гарантированная доступность сервиса составляет 99,9 % в месяц.",
        "ru",
        "contradicted",
    ),
]


THIRTEENTH_ROUND = [
    (
        "研究期间，除非研究医生同意，否则您不能自行服用其他降糖药物。",
        "研究期间您不得参加其他任何临床试验，也不得自行服用其他降糖药物，除非经研究医生同意。",
        "zh",
        "entailed",
    ),
    (
        "研究期间，您可以自行服用其他降糖药物。",
        "研究期间您不得参加其他任何临床试验，也不得自行服用其他降糖药物，除非经研究医生同意。",
        "zh",
        "insufficient",
    ),
    (
        "You must not take other medicines unless your doctor agrees.",
        "You must not join another trial, and you must not take other medicines unless your doctor agrees.",
        "en",
        "entailed",
    ),
    (
        "收到补考通知后，你需要在十个工作日内通过教务系统确认补考科目，否则就视为放弃补考。",
        "学生应当在收到补考通知后10个工作日内通过教务系统确认补考科目，逾期未确认的视为放弃补考。",
        "zh",
        "entailed",
    ),
    (
        "Group bookings of up to 10 rooms must be cancelled at least 30 days before arrival to avoid a charge.",
        "Group bookings of 10 or more rooms must be cancelled at least 30 days before arrival to avoid a charge of 50 percent of the total booking value.",
        "en",
        "contradicted",
    ),
    (
        "Group bookings can be cancelled up to 10 days before arrival.",
        "Group bookings can be cancelled no later than 10 days before arrival.",
        "en",
        "entailed",
    ),
    (
        "If you buy cross-border cover before pick-up, you can drive the car outside the United Kingdom.",
        "The vehicle may only be driven outside the United Kingdom if the renter has bought cross-border cover before pick-up.",
        "en",
        "insufficient",
    ),
    (
        "You can drive the car outside the United Kingdom only if you bought cross-border cover before pick-up.",
        "The vehicle may only be driven outside the United Kingdom if the renter has bought cross-border cover before pick-up.",
        "en",
        "entailed",
    ),
    (
        "При наличии справки от педиатра ребёнка обязательно допустят в детский сад после болезни.",
        "После болезни ребёнок допускается в детский сад только при наличии справки от педиатра.",
        "ru",
        "insufficient",
    ),
    (
        "После болезни ребёнка допустят в детский сад только при наличии справки от педиатра.",
        "После болезни ребёнок допускается в детский сад только при наличии справки от педиатра.",
        "ru",
        "entailed",
    ),
    (
        "Members under 16 can use the gym floor whenever they are accompanied by a parent or guardian who is a member.",
        "Members under 16 may use the gym floor only when accompanied by a parent or guardian who is also a member.",
        "en",
        "insufficient",
    ),
    (
        "The £300 deposit is released within 10 working days after the vehicle is returned.",
        "A security deposit of £300 is blocked on the driver's credit card at pick-up and is released within 10 working days after the vehicle is returned undamaged.",
        "en",
        "insufficient",
    ),
    (
        "The £300 deposit is released within 10 working days after the car is returned undamaged.",
        "A security deposit of £300 is blocked on the driver's credit card at pick-up and is released within 10 working days after the vehicle is returned undamaged.",
        "en",
        "entailed",
    ),
    (
        "When a flight is full, your cabin bag might be checked into the hold at the gate without charge.",
        "On full flights, cabin bags may be checked into the hold free of charge at the gate.",
        "en",
        "entailed",
    ),
    (
        "You are allowed one small personal item on board, for example a handbag or laptop bag, no larger than 40 x 30 x 15 centimetres.",
        "Every passenger may bring one small personal item on board, such as a handbag or laptop bag, measuring no more than 40 x 30 x 15 centimetres.",
        "en",
        "entailed",
    ),
    (
        "You may bring one bag no smaller than 40 centimetres.",
        "Every passenger may bring one bag measuring no more than 40 centimetres.",
        "en",
        "contradicted",
    ),
    (
        "Кроме ручной клади, можно взять с собой дамскую сумочку или портфель, если их размер не превышает 30 на 20 на 10 сантиметров.",
        "Помимо ручной клади, пассажир может взять с собой дамскую сумочку или портфель размером не более 30 на 20 на 10 сантиметров.",
        "ru",
        "entailed",
    ),
    (
        "Кроме поминутного ограничения, на бесплатном тарифе есть ещё и суточный лимит — 10 000 запросов.",
        "Помимо поминутного ограничения, для бесплатного тарифа действует суточный лимит в 10 000 запросов.",
        "ru",
        "entailed",
    ),
    (
        "Кроме ручной клади, пассажир может взять с собой сумочку.",
        "За исключением ручной клади, пассажир не может взять с собой ничего.",
        "ru",
        "contradicted",
    ),
    (
        "Перед визитами, на которых берут кровь, нельзя есть как минимум восемь часов.",
        "Перед каждым визитом со взятием крови вы должны воздерживаться от еды не менее 8 часов.",
        "ru",
        "insufficient",
    ),
    (
        "Нельзя принимать препарат больше 3 дней.",
        "Препарат можно принимать не более 3 дней.",
        "ru",
        "entailed",
    ),
    (
        "In this study, about 1 in 10 participants will get mild headaches or dizziness.",
        "The most common side effects seen so far are mild headaches and dizziness, which affected about 1 in 10 participants in earlier studies.",
        "en",
        "insufficient",
    ),
    (
        "Users who registered before May will get a discount.",
        "Users who registered before May get a discount.",
        "en",
        "entailed",
    ),
    ("婚假为十天。", "婚假为10天，须在领取结婚证后12个月内休完。", "zh", "entailed"),
    (
        "通过第三方平台预订的，酒店会直接为宾客办理退款。",
        "通过第三方平台预订的，宾客应当按照该平台的取消政策办理，酒店不直接受理退款。",
        "zh",
        "contradicted",
    ),
    (
        "通过第三方平台预订的，酒店不直接办理退款。",
        "通过第三方平台预订的，宾客应当按照该平台的取消政策办理，酒店不直接受理退款。",
        "zh",
        "entailed",
    ),
    (
        "You should postpone your vaccination if you have a mild cold.",
        "If you have a high fever, your vaccination should be postponed, but a mild cold is not a reason to delay it.",
        "en",
        "insufficient",
    ),
    (
        "You should postpone your vaccination if you have a high fever.",
        "If you have a high fever, your vaccination should be postponed, but a mild cold is not a reason to delay it.",
        "en",
        "entailed",
    ),
    (
        "Первую пересдачу принимает комиссия из трёх преподавателей, а вторую — преподаватель, принимавший экзамен.",
        "Первая пересдача проводится преподавателем, принимавшим экзамен, а вторая — комиссией из трёх преподавателей кафедры.",
        "ru",
        "contradicted",
    ),
    (
        "Первую пересдачу принимает преподаватель, принимавший экзамен, а вторую — комиссия из трёх преподавателей кафедры.",
        "Первая пересдача проводится преподавателем, принимавшим экзамен, а вторая — комиссией из трёх преподавателей кафедры.",
        "ru",
        "entailed",
    ),
    (
        "The first retake is marked by a panel of three, while the second is marked by the original examiner.",
        "The first retake is marked by the original examiner, while the second is marked by a panel of three lecturers.",
        "en",
        "contradicted",
    ),
    (
        "第一次补考由三名教师组成的小组主持，第二次补考由原任课教师主持。",
        "第一次补考由原任课教师主持，第二次补考由三名教师组成的小组主持。",
        "zh",
        "contradicted",
    ),
    (
        "第一次补考由原任课教师主持，第二次由三名教师组成的小组主持。",
        "第一次补考由原任课教师主持，第二次补考由三名教师组成的小组主持。",
        "zh",
        "entailed",
    ),
    (
        "Временный пароль, выданный службой поддержки, действует 24 часа с момента первого входа.",
        "Временный пароль, выданный службой поддержки, действует 24 часа и должен быть изменён при первом входе.",
        "ru",
        "insufficient",
    ),
    (
        "Гарантия действует 12 месяцев с момента покупки.",
        "Гарантия действует 12 месяцев со дня покупки.",
        "ru",
        "entailed",
    ),
    (
        "A child with conjunctivitis can keep attending as long as fewer than two children in their group are affected.",
        "Children with conjunctivitis may continue to attend unless two or more children in the same group are affected.",
        "en",
        "insufficient",
    ),
    (
        "Children with conjunctivitis may attend only if two or more children are affected.",
        "Children with conjunctivitis may attend only if fewer than two children are affected.",
        "en",
        "contradicted",
    ),
    (
        "За пределы России на арендованном автомобиле выезжать нельзя.",
        "Выезд на автомобиле за пределы Российской Федерации запрещён. Штраф составляет 5000 рублей.",
        "ru",
        "insufficient",
    ),
    (
        "如果购买了不计免赔服务，事故车损由保险承担，您不用支付免赔额。",
        "承租人购买了不计免赔服务的，事故车损由保险承担，承租人无需支付免赔额；未购买的，承租人须承担不超过1500元的免赔额。",
        "zh",
        "insufficient",
    ),
    (
        "办卡7天内，即使已经使用过服务，仍然可以申请全额退款。",
        "会员在办卡之日起7天内且未使用任何服务的，可以申请全额退款。",
        "zh",
        "contradicted",
    ),
    (
        "特惠价预订一经确认，除法律另有规定外，既不能取消、修改，也不会退款。",
        "提前购买的特惠价预订一经确认，不可取消、不可修改，也不予退款，法律另有规定的除外。",
        "zh",
        "entailed",
    ),
    (
        "团体预订的定金在入住日前两周之后就不退了。",
        "团体预订（10间及以上）须在入住日前30天支付50%定金，定金在入住日前14天之后不予退还。",
        "zh",
        # insufficient until rules-3.11 read `不退` as meeting `不予退还`
        "entailed",
    ),
    (
        "团体预订须在入住日前14天支付定金。",
        "团体预订（10间及以上）须在入住日前30天支付50%定金，定金在入住日前14天之后不予退还。",
        "zh",
        "contradicted",
    ),
    (
        "超过100Wh但不超过160Wh的充电宝，除非经航空公司批准，否则不能携带。",
        "充电宝必须随身携带，禁止托运；额定能量不超过100Wh的可直接携带，超过100Wh但不超过160Wh的须经航空公司批准，超过160Wh的禁止携带。",
        "zh",
        "entailed",
    ),
    (
        "The subscription does not renew unless you cancel.",
        "If you do not cancel, the subscription renews automatically.",
        "en",
        "contradicted",
    ),
    (
        "The policy says that fees may increase by no more than 5 percent per year.",
        "Fees may increase by no more than 5 percent per year, and we will notify you at least 30 days before any increase takes effect.",
        "en",
        "entailed",
    ),
    (
        "В правилах сказано, что пеня не может превышать 300 рублей.",
        "Пеня не может превышать 300 рублей.",
        "ru",
        "entailed",
    ),
    (
        "The policy says that fees may increase by more than 5 percent per year.",
        "Fees may increase by no more than 5 percent per year.",
        "en",
        "contradicted",
    ),
    (
        "Чтобы посещать бассейн, нужна медицинская справка, выданная не раньше чем за три месяца до вашего первого посещения.",
        "Посещение бассейна возможно только при наличии медицинской справки, выданной не ранее чем за 3 месяца до первого посещения.",
        "ru",
        "entailed",
    ),
    (
        "Заявление о заморозке нужно подать письменно не позже чем за день до её начала.",
        "Для заморозки Клиент должен подать письменное заявление не позднее чем за один день до начала периода заморозки.",
        "ru",
        "entailed",
    ),
    ("Пеня составляет 10 рублей за день.", "Пеня составляет 10 рублей в день.", "ru", "entailed"),
    (
        "Items can be placed at the kerb no sooner than 6 pm on the evening before collection.",
        "Items must be placed at the kerb no earlier than 6 pm on the evening before collection.",
        "en",
        "entailed",
    ),
    (
        "The flexible membership, which has no minimum term, costs 49 pounds per month.",
        "A flexible membership with no minimum term is available for 49 pounds per month.",
        "en",
        "insufficient",
    ),
    (
        "On a Business fare, a cabin bag can weigh no more than 12 kilograms.",
        "The cabin bag must not weigh more than 8 kilograms on Plus fares or 12 kilograms on Business fares.",
        "en",
        "entailed",
    ),
    (
        "On a Business fare, a cabin bag must weigh at least 12 kilograms.",
        "The cabin bag must not weigh more than 8 kilograms on Plus fares or 12 kilograms on Business fares.",
        "en",
        "contradicted",
    ),
    (
        "A membership freeze lasts from one to three months per year.",
        "A membership freeze lasts between 1 and 3 months per year.",
        "en",
        "entailed",
    ),
    (
        "Доступ в бассейн предоставляется клиенту на весь срок действия клубной карты.",
        "Клуб предоставляет Клиенту доступ в тренажёрный зал, бассейн и на групповые занятия в течение срока действия клубной карты.",
        "ru",
        "entailed",
    ),
    (
        "Apart from public holidays, collections take place on Tuesdays and Thursdays from 7 am to 4 pm.",
        "Collections take place on Tuesdays and Thursdays between 7 am and 4 pm, except on public holidays.",
        "en",
        "entailed",
    ),
    (
        "Societies do fall apart from war, disease or chaos.",
        "Diseases flourished in the chaotic wartime conditions.",
        "en",
        "insufficient",
    ),
    (
        "Provided no other member has placed a hold on an item, you can renew it a maximum of three times.",
        "You can renew an item up to three times, unless another member has placed a hold on it.",
        "en",
        "entailed",
    ),
    (
        "Если вы задержите книги больше чем на 60 дней, выдачу на дом вам приостановят до возврата всех книг.",
        "Если просрочка превышает 60 дней, право выдачи книг на дом приостанавливается до возврата всех книг.",
        "ru",
        "insufficient",
    ),
    (
        "Если просрочка превышает 60 дней, выдачу на дом приостанавливают, пока не будут возвращены все книги.",
        "Если просрочка превышает 60 дней, право выдачи книг на дом приостанавливается до возврата всех книг.",
        "ru",
        "entailed",
    ),
    (
        "Apart from a medical emergency, which treatment you are getting will remain unknown to both you and the study doctor until the end of the study.",
        "Neither you nor the study doctor will know which treatment you are receiving until the study ends, except in a medical emergency.",
        "en",
        "insufficient",
    ),
    ("The results are known.", "The results are not known.", "en", "contradicted"),
    (
        "健身房有可能因为设备检修而临时闭馆。",
        "健身房可能因设备检修临时闭馆，闭馆超过3天的，会员卡有效期将按闭馆天数顺延。",
        "zh",
        "entailed",
    ),
    (
        "航班满员的时候，登机口工作人员可能会要求部分旅客把手提行李改成免费托运。",
        "航班满员时，登机口工作人员可能要求部分旅客将手提行李改为免费托运。",
        "zh",
        "entailed",
    ),
    (
        "每日配额会在北京时间每天零点重置。",
        "每日请求配额在北京时间每天0点重置，未用完的配额不会累计到次日。",
        "zh",
        "entailed",
    ),
    (
        "每日配额会在北京时间每天中午12点重置。",
        "每日请求配额在北京时间每天0点重置，未用完的配额不会累计到次日。",
        "zh",
        "insufficient",
    ),
    (
        "器材如果是被会员损坏的，会员应照价赔偿，但器材自身故障导致的损坏除外。",
        "会员损坏器材的，应当照价赔偿，因器材本身故障造成的损坏除外。",
        "zh",
        "entailed",
    ),
    (
        "会员每次入场都需要刷卡或刷脸。",
        "会员每次入场须刷卡或刷脸，每日入场次数不限，但单次停留时间一般不超过4小时。",
        "zh",
        "entailed",
    ),
    ("每个人都有手机", "注册手机不一定是一人一机吧", "zh", "insufficient"),
    (
        "在全市任一分馆都可以归还从任一分馆借出的图书，少儿分馆借出的除外。",
        "除少儿分馆借出的图书外，在任一分馆借出的图书均可在全市任一分馆归还。",
        "zh",
        "entailed",
    ),
    ("每位旅客最多只能携带两个充电宝。", "每位旅客携带的充电宝不得超过2个。", "zh", "entailed"),
    ("每位旅客最多只能携带三个充电宝。", "每位旅客携带的充电宝不得超过2个。", "zh", "contradicted"),
    (
        "充电宝只能随身携带，不可以托运。",
        "充电宝必须随身携带，禁止托运；额定能量不超过100Wh的可直接携带。",
        "zh",
        "entailed",
    ),
    ("充电宝只能托运。", "充电宝可以随身携带。", "zh", "insufficient"),
    (
        "In earlier studies, mild headaches and dizziness, the most common side effects so far, affected around one in ten participants.",
        "The most common side effects seen so far are mild headaches and dizziness, which affected about 1 in 10 participants in earlier studies.",
        "en",
        "entailed",
    ),
    (
        "In earlier studies, mild headaches affected around one in five participants.",
        "The most common side effects seen so far are mild headaches and dizziness, which affected about 1 in 10 participants in earlier studies.",
        "en",
        "contradicted",
    ),
    (
        "You should retry using exponential backoff, doubling the delay up to a ceiling of 64 seconds.",
        "Clients should retry with exponential backoff, starting at 1 second and doubling the delay up to a maximum of 64 seconds.",
        "en",
        "entailed",
    ),
    (
        "Every operation still counts toward the daily quota.",
        "Each operation is counted against the daily quota.",
        "en",
        "entailed",
    ),
    (
        "Power banks of up to 100 kilowatt-hours are permitted in cabin baggage.",
        "Power banks are permitted only in cabin baggage and must not exceed 100 watt-hours.",
        "en",
        "contradicted",
    ),
    (
        "Power banks of up to 100 watt-hours are permitted only in cabin baggage.",
        "Power banks are permitted only in cabin baggage and must not exceed 100 watt-hours.",
        "en",
        "entailed",
    ),
    (
        "A battery of 0.1 kWh is allowed.",
        "Batteries of up to 100 Wh are allowed.",
        "en",
        "entailed",
    ),
    (
        "If a lost item comes back in good condition within six months of the bill, the processing fee is refunded but the replacement cost is not.",
        "If a lost item is returned in good condition within 6 months of the bill, the replacement cost is refunded, but the processing fee is not.",
        "en",
        "contradicted",
    ),
    (
        "If a lost item is returned in good condition within six months of the bill, the replacement cost is refunded but the processing fee is not.",
        "If a lost item is returned in good condition within 6 months of the bill, the replacement cost is refunded, but the processing fee is not.",
        "en",
        "entailed",
    ),
    (
        "Плата за доставку возвращается, а стоимость товара нет.",
        "Стоимость товара возвращается, а плата за доставку не возвращается.",
        "ru",
        "contradicted",
    ),
    (
        "服用试验药物后，一部分受试者可能会出现恶心、腹泻之类的胃肠道不适，一般两周内会自行缓解。",
        "服用试验药物后，部分受试者可能出现恶心、腹泻等胃肠道不适，通常在2周内自行缓解。",
        "zh",
        "entailed",
    ),
    (
        "服用试验药物后，所有受试者都会出现胃肠道不适。",
        "服用试验药物后，部分受试者可能出现恶心、腹泻等胃肠道不适，通常在2周内自行缓解。",
        "zh",
        "insufficient",
    ),
    (
        "用未成年人读者证每次至多可借5册图书，其中绘本最多3册。",
        "未成年人读者证每次最多可借阅5册图书，其中绘本不超过3册。",
        "zh",
        "entailed",
    ),
    (
        "用未成年人读者证每次至多可借6册图书。",
        "未成年人读者证每次最多可借阅5册图书，其中绘本不超过3册。",
        "zh",
        "contradicted",
    ),
    (
        "遇到恶劣天气时，清运可能会顺延，具体的顺延安排会提前用短信告知。",
        "遇恶劣天气，清运作业可能顺延，顺延安排将提前通过短信告知。",
        "zh",
        "entailed",
    ),
    (
        "如果一个密钥在连续一小时内触发频率限制超过100次，系统可能会把它临时冻结半小时。",
        "连续1小时内触发频率限制超过100次的密钥，系统可能将其临时冻结30分钟。",
        "zh",
        "entailed",
    ),
    (
        "К крупногабаритным отходам относятся предметы, у которых хотя бы одно измерение больше 50 сантиметров.",
        "К крупногабаритным отходам относятся предметы, размер которых превышает 0,5 метра хотя бы по одному измерению.",
        "ru",
        "entailed",
    ),
    (
        "The bag may be up to 55 centimetres long.",
        "The bag may be up to 0.55 metres long.",
        "en",
        "entailed",
    ),
    (
        "The bag may be up to 55 centimetres long.",
        "The bag may be up to 55 metres long.",
        "en",
        "contradicted",
    ),
    (
        "经济舱手提行李三边之和不超过115毫米。",
        "经济舱旅客可免费携带1件手提行李，三边之和不超过115厘米。",
        "zh",
        "contradicted",
    ),
    (
        "Отходы с площадки вывозят по крайней мере раз в неделю.",
        "С площадки отходы вывозят не реже одного раза в неделю.",
        "ru",
        "entailed",
    ),
    (
        "Отходы с площадки вывозят по крайней мере два раза в неделю.",
        "С площадки отходы вывозят не реже одного раза в неделю.",
        "ru",
        "contradicted",
    ),
    (
        "健身房有可能因为设备检修而临时闭馆。",
        "健身房可能临时闭馆，原因是设备检修。",
        "zh",
        "insufficient",
    ),
]


FOURTEENTH_ROUND = [
    (
        "При ошибке сервер возвращает код 503.",
        "При ошибке сервер возвращает код 500 и делает запись в журнале.",
        "ru",
        "contradicted",
    ),
    (
        "При ошибке сервер возвращает код 500.",
        "При ошибке сервер возвращает код 500 и делает запись в журнале.",
        "ru",
        "entailed",
    ),
    (
        "签名错误时，接口返回错误码401。",
        "签名错误时，接口返回错误码403，并记录日志。",
        "zh",
        "contradicted",
    ),
    (
        "No warming has been recorded since 1995.",
        "Satellite data show no appreciable warming since 1979.",
        "en",
        "insufficient",
    ),
    (
        "Заявления принимаются до 20 апреля.",
        "Заявления принимаются до 20 мая текущего года.",
        "ru",
        "contradicted",
    ),
    (
        "The office closes on 24 December.",
        "The office closes on 31 December and reopens on 2 January.",
        "en",
        "contradicted",
    ),
    (
        "The office closes on 31 December.",
        "The office closes on 31 December and reopens on 2 January.",
        "en",
        "entailed",
    ),
    (
        "报名截止日期为4月20日。",
        "报名截止日期为4月15日。",
        "zh",
        "contradicted",
    ),
    (
        "Для каждого ключа действует лимит не более 50 запросов в минуту.",
        "Для каждого ключа действует лимит не более 50 запросов в секунду.",
        "ru",
        "contradicted",
    ),
    (
        "Для каждого ключа действует лимит не более 50 запросов в секунду.",
        "Для каждого ключа действует лимит не более 50 запросов в секунду.",
        "ru",
        "entailed",
    ),
    (
        "Anyone may borrow up to 5 books at a time.",
        "Each member may borrow up to 5 books at a time.",
        "en",
        "insufficient",
    ),
    (
        "Visitors must wear a helmet on the construction site.",
        "Visitors are advised to wear a helmet on the construction site.",
        "en",
        "insufficient",
    ),
    (
        "Cats and dogs are housed in the same building.",
        "Cats and dogs are housed in separate buildings.",
        "en",
        "insufficient",
    ),
    (
        "第二个孩子的学费为1000元。",
        "第一个孩子的学费为1000元，第二个孩子的学费为800元。",
        "zh",
        "contradicted",
    ),
    (
        "第二个孩子的学费为800元。",
        "第一个孩子的学费为1000元，第二个孩子的学费为800元。",
        "zh",
        "entailed",
    ),
    (
        "维修时应先打开机箱，再关闭电源。",
        "维修时应先关闭电源，再打开机箱。",
        "zh",
        "contradicted",
    ),
    (
        "只要下雨，比赛就会取消。",
        "如果降雨持续超过2小时，比赛会取消。",
        "zh",
        "insufficient",
    ),
    (
        "Members can buy as many as ten one-day guest passes a year.",
        "Members may buy up to 10 one-day guest passes per year.",
        "en",
        "entailed",
    ),
    (
        "Оплатить заказ можно через СБП.",
        "Оплатить заказ можно через Систему быстрых платежей.",
        "ru",
        "entailed",
    ),
    (
        "Оплатить заказ можно через ФНС.",
        "Оплатить заказ можно через Систему быстрых платежей.",
        "ru",
        "insufficient",
    ),
    (
        "Штраф за просрочку составляет больше двух тысяч рублей.",
        "Штраф за просрочку составляет 2500 рублей.",
        "ru",
        "entailed",
    ),
    (
        "Штраф за просрочку составляет больше трёх тысяч рублей.",
        "Штраф за просрочку составляет 2500 рублей.",
        "ru",
        "contradicted",
    ),
    (
        "Cars that have no parking permit may stay in the zone for at most three hours.",
        "Cars without a parking permit may stay in the zone for no more than 3 hours.",
        "en",
        "entailed",
    ),
    (
        "Cars that have a parking permit may stay in the zone for at most three hours.",
        "Cars without a parking permit may stay in the zone for no more than 3 hours.",
        "en",
        "contradicted",
    ),
    (
        "No car may stay in the zone for more than three hours.",
        "Cars may not stay in the zone for more than 3 hours.",
        "en",
        "entailed",
    ),
    (
        "Как указано в документе, правила утвердил директор 5 марта 2025 года.",
        "Правила утверждены директором 5 марта 2025 года.",
        "ru",
        "entailed",
    ),
    (
        "The alarms are tested no less often than once every three months.",
        "The alarms are tested at least once every 3 months.",
        "en",
        "entailed",
    ),
    (
        "The monthly fee is going up to forty euros from 1 May 2025.",
        "From 1 May 2025, the monthly fee will rise to €40.",
        "en",
        "entailed",
    ),
    (
        "You have to complete registration at least a week before the course starts.",
        "Registration must be completed at least 7 days before the course starts.",
        "en",
        "entailed",
    ),
    (
        "Tickets can be bought at the box office only.",
        "Tickets may only be bought at the box office.",
        "en",
        "entailed",
    ),
    (
        "Tickets can be bought at the box office.",
        "Tickets may only be bought at the box office.",
        "en",
        "insufficient",
    ),
    (
        "Ticket refunds are made automatically within 14 days when a show is cancelled.",
        "If a show is cancelled, ticket refunds are made automatically within 14 days, but service fees are not refunded.",
        "en",
        "entailed",
    ),
    (
        "Service fees are refunded when a show is cancelled.",
        "If a show is cancelled, ticket refunds are made automatically within 14 days, but service fees are not refunded.",
        "en",
        "contradicted",
    ),
    (
        "Нижнее бельё и косметика подлежат обмену.",
        "Нижнее бельё, косметика и товары, изготовленные на заказ, обмену не подлежат.",
        "ru",
        "contradicted",
    ),
    (
        "The library is unable to renew a book that another reader has reserved.",
        "The library cannot renew a book that another reader has reserved.",
        "en",
        "insufficient",
    ),
    (
        "Parking costs £2 for each further hour.",
        "Parking costs £2 per hour after the first hour.",
        "en",
        "entailed",
    ),
    (
        "The lifts are inspected two or more times a year.",
        "The lifts are inspected at least twice a year.",
        "en",
        "entailed",
    ),
    (
        "A repeat prescription cannot be collected more than a week before the old one runs out.",
        "A repeat prescription cannot be collected earlier than 7 days before the old one runs out.",
        "en",
        "entailed",
    ),
    (
        "每位住客最多可以带3名访客。",
        "每位住客可以带2名访客进入宿舍。",
        "zh",
        "contradicted",
    ),
    (
        "Both parents may stay overnight.",
        "Parents may visit at any time, but only one of them may stay overnight.",
        "en",
        "insufficient",
    ),
    (
        "The gym is open on both weekdays and weekends.",
        "The gym is open on weekdays and weekends.",
        "en",
        "entailed",
    ),
    (
        "Late returns are charged £1 for every additional 30 minutes.",
        "Late returns are charged £1 for every additional 15 minutes after the first 30 minutes.",
        "en",
        "insufficient",
    ),
    (
        "从2025年3月1日开始，会员卡全部改为电子会员卡。",
        "自2025年3月1日起，会员卡全部改为电子会员卡，不再发放纸质卡。",
        "zh",
        "entailed",
    ),
    (
        "如需退订，必须至少提前两天通知客服。",
        "退订须在服务开始前至少48小时通知客服。",
        "zh",
        "entailed",
    ),
    (
        "比赛开始前必须签到。",
        "比赛前必须签到。",
        "zh",
        "insufficient",
    ),
    (
        "说明指出，老用户在当前周期内不受影响。",
        "自2025年1月1日起，价格将调整为98元，老用户在当前周期内不受影响。",
        "zh",
        "entailed",
    ),
    (
        "Each bottle holds 1.5 litres.",
        "Each bottle holds 1500 millilitres.",
        "en",
        "entailed",
    ),
    (
        "Each bottle holds 2 litres.",
        "Each bottle holds 1500 millilitres.",
        "en",
        "insufficient",
    ),
    (
        "Детей, которым ещё не исполнилось шести лет, в бассейн не пускают.",
        "Детей младше 6 лет в бассейн не пускают.",
        "ru",
        "entailed",
    ),
    (
        "Детей, которым исполнилось шесть лет, в бассейн не пускают.",
        "Детей младше 6 лет в бассейн не пускают.",
        "ru",
        "insufficient",
    ),
    (
        "Members are not obliged to attend the annual meeting.",
        "Members are not required to attend the annual meeting.",
        "en",
        "entailed",
    ),
    (
        "Members are obliged to attend the annual meeting.",
        "Members are not required to attend the annual meeting.",
        "en",
        "contradicted",
    ),
    (
        "На международных рейсах услуга стоит 60 долларов.",
        "Услуга стоит 4500 рублей на внутренних рейсах и 60 евро на международных рейсах.",
        "ru",
        "contradicted",
    ),
    (
        "На международных рейсах услуга стоит 60 евро.",
        "Услуга стоит 4500 рублей на внутренних рейсах и 60 евро на международных рейсах.",
        "ru",
        "entailed",
    ),
    (
        "Кролики должны быть привиты от миксоматоза, а хорьки — от чумы.",
        "Хорьки должны быть привиты от миксоматоза и лептоспироза, а кролики — от чумы.",
        "ru",
        "contradicted",
    ),
    (
        "Хорьки должны быть привиты от миксоматоза, а кролики — от чумы.",
        "Хорьки должны быть привиты от миксоматоза и лептоспироза, а кролики — от чумы.",
        "ru",
        "entailed",
    ),
    (
        "Dogs must be vaccinated against rabies, while cats must be vaccinated against flu.",
        "Cats must be vaccinated against rabies, while dogs must be vaccinated against flu.",
        "en",
        "contradicted",
    ),
    (
        "Cats must be vaccinated against rabies, while dogs must be vaccinated against flu.",
        "Cats must be vaccinated against rabies, while dogs must be vaccinated against flu.",
        "en",
        "entailed",
    ),
]


FIFTEENTH_ROUND = [
    # roles swapped across `, and` (and `, и`); the same clauses in order stay entailed
    (
        "Weekday lessons start at the main pool, and weekend lessons start at the training pool.",
        "Weekend lessons start at the main pool, and weekday lessons start at the training pool.",
        "en",
        "contradicted",
    ),
    (
        "Weekend lessons start at the training pool, and weekday lessons start at the main pool.",
        "Weekday lessons start at the main pool, and weekend lessons start at the training pool.",
        "en",
        "entailed",
    ),
    (
        "Взрослые платят картой, и дети платят наличными.",
        "Дети платят картой, а взрослые платят наличными.",
        "ru",
        "contradicted",
    ),
    # a bound denied to its complement is the rule read from the other side when the permitting
    # side states the bound as necessary; without a necessity word neither contradicts
    ("未满18岁的乘客不能单独办理值机。", "乘客年满18岁才能单独办理值机。", "zh", "entailed"),
    ("未满16周岁的学生不得进入实验室。", "学生须年满16周岁才可进入实验室。", "zh", "entailed"),
    (
        "You must be 18 or older to rent a car.",
        "Drivers under 18 cannot rent a car.",
        "en",
        "entailed",
    ),
    (
        "Members under 16 may not use the sauna.",
        "Only members aged 16 or over may use the sauna.",
        "en",
        "entailed",
    ),
    (
        "Drivers under 18 cannot rent a car.",
        "Drivers aged 18 or over can rent a car.",
        "en",
        "insufficient",
    ),
    (
        "Drivers aged 18 or over can rent a car.",
        "Drivers under 18 cannot rent a car.",
        "en",
        "insufficient",
    ),
    (
        "Drivers under 21 cannot rent a car.",
        "You must be 18 or older to rent a car.",
        "en",
        "contradicted",
    ),
    # a grouped amount's comma and a relative clause cut inside a number
    (
        "Drivers under 25 pay a £1,000 excess.",
        "Drivers under 25 pay an excess of £1,000, and Damage Protection reduces this to £300.",
        "en",
        "entailed",
    ),
    (
        "Guests staying more than three hours are charged the £25 day-pass rate.",
        "Guests who stay longer than 3 hours are charged the day-pass rate of £25.",
        "en",
        "entailed",
    ),
    (
        "Guests staying more than three hours are charged the £20 day-pass rate.",
        "Guests who stay longer than 3 hours are charged the day-pass rate of £25.",
        "en",
        "contradicted",
    ),
    # `each membership includes 4 hours` quantifies memberships; `every 6 hours` stays a rate
    (
        "Every membership includes four hours of meeting-room time per month.",
        "Each membership includes 4 hours of meeting-room time per month.",
        "en",
        "entailed",
    ),
    (
        "Фильтр нужно менять каждые три месяца.",
        "Фильтр следует заменять каждые 3 месяца.",
        "ru",
        "entailed",
    ),
    # free as a negated cost
    (
        "教职工申请图书是不收取任何费用的。",
        "教职工申请图书免收费用，学生每册须支付10元手续费。",
        "zh",
        "entailed",
    ),
    (
        "Article requests never cost anything.",
        "Article requests are always free and are delivered as a PDF.",
        "en",
        "entailed",
    ),
    # the case a bound leaves out (`otherwise`, `之后`, an exception) is no clash
    (
        "If your balance is below £5, your account may be suspended.",
        "Your balance must stay at £5 or more, otherwise your account may be suspended.",
        "en",
        "insufficient",
    ),
    (
        "如果在报名开始72小时之后才取消，将被扣除两成学费。",
        "报名开始后的72小时内可以免费取消，之后取消的将扣除学费的20%。",
        "zh",
        "insufficient",
    ),
    (
        "如果在报名开始72小时之内取消，可以免费取消。",
        "报名开始后的72小时内可以免费取消，之后取消的将扣除学费的20%。",
        "zh",
        "entailed",
    ),
    (
        "Если гость заранее зарегистрирован у консьержа, его машина может стоять во дворе "
        "дольше трёх часов.",
        "Гостевые автомобили могут стоять во дворе не дольше 3 часов, за исключением случаев, "
        "когда гость заранее зарегистрирован у консьержа.",
        "ru",
        "insufficient",
    ),
    # an amount the evidence gives as approximate, stated plainly
    ("The trip takes 40 minutes.", "The trip takes about 40 minutes.", "en", "insufficient"),
    ("The trip takes around 40 minutes.", "The trip takes about 40 minutes.", "en", "entailed"),
    ("Поездка занимает 40 минут.", "Поездка занимает примерно 40 минут.", "ru", "insufficient"),
    ("行程需要40分钟。", "行程需要40分钟左右。", "zh", "insufficient"),
    (
        "There's a water station every 5 kilometres.",
        "Water stations are placed roughly every 5 kilometres.",
        "en",
        "insufficient",
    ),
    # one clause hands the subject of the other polarity's clause its own polarity
    (
        "Snorkels are allowed in lessons, but fins are not.",
        "Goggles are allowed, but snorkels and fins are not permitted in lessons.",
        "en",
        "contradicted",
    ),
    (
        "Goggles are allowed in lessons, but fins are not.",
        "Goggles are allowed, but snorkels and fins are not permitted in lessons.",
        "en",
        "entailed",
    ),
    # an amount of one alternative given to the other (`or`); alternatives without units are
    # not told apart (`the 19th century or early in the 20th`)
    (
        "The rolling 30-day plan costs £18 per month.",
        "The Flex 30 plan costs £18 per month on a 12-month contract or £22 per month on a "
        "rolling 30-day plan.",
        "en",
        "contradicted",
    ),
    (
        "On a 12-month contract the Flex 30 plan costs £18 per month.",
        "The Flex 30 plan costs £18 per month on a 12-month contract or £22 per month on a "
        "rolling 30-day plan.",
        "en",
        "entailed",
    ),
    (
        "The cold period ended as recently as 1850.",
        "The cold period ended in the latter half of the 19th century or early in the 20th "
        "century.",
        "en",
        "insufficient",
    ),
    # a restriction of who after a statement (`，但仅限…`) stays in the focus of every form
    (
        "核心部件的保修期为5年。",
        "核心部件的保修期为5年，但仅限首位购买者享有。",
        "zh",
        "insufficient",
    ),
    # `have N days to` is a deadline
    (
        "После возвращения у вас есть три рабочих дня, чтобы сдать авансовый отчёт.",
        "Авансовый отчёт нужно сдать в течение 3 рабочих дней после возвращения.",
        "ru",
        "entailed",
    ),
    (
        "You have 14 days to return the item.",
        "Items must be returned within 14 days.",
        "en",
        "entailed",
    ),
    (
        "You have 10 days to return the item.",
        "Items must be returned within 14 days.",
        "en",
        "contradicted",
    ),
    # not paying is free; paying where the evidence says you do not is not accepted
    (
        "Staff and postgraduate researchers don't pay for requests.",
        "Requests are free for staff and postgraduate researchers, but undergraduates pay £3 "
        "per book request.",
        "en",
        "entailed",
    ),
    ("You pay for requests.", "You don't pay for requests.", "en", "insufficient"),
    ("Requests are not free.", "You don't pay for requests.", "en", "contradicted"),
    (
        "За заказ изданий из российских библиотек платить не нужно.",
        "Заказ изданий из российских библиотек бесплатен для всех читателей.",
        "ru",
        "entailed",
    ),
    # `每笔订单都` quantifies the orders (as `所有订单均` does); a one-character negated verb
    # meets the negated word that contains it
    ("每笔订单都已经包含交强险。", "所有订单均已包含交强险。", "zh", "entailed"),
    ("每个会员都可以免费使用会议室。", "部分会员可以免费使用会议室。", "zh", "insufficient"),
    ("每个会员都可以免费使用会议室。", "高级会员可以免费使用会议室。", "zh", "insufficient"),
    ("酒后驾驶的话，保险一律不赔。", "酒后驾驶的，保险一律不予赔付。", "zh", "entailed"),
    ("酒后驾驶的话，保险一律赔付。", "酒后驾驶的，保险一律不予赔付。", "zh", "contradicted"),
    ("酒后驾驶的话，保险一律不退。", "酒后驾驶的，保险一律不予赔付。", "zh", "insufficient"),
]
"""`rules-3.11`."""


SIXTEENTH_ROUND = [
    # who gives and who receives: a transfer restated from the other side aligns, roles
    # handed over are another statement
    (
        "Each employee receives a leave balance statement from HR in January.",
        "The HR department sends each employee a leave balance statement in January.",
        "en",
        "entailed",
    ),
    (
        "HR gets a leave balance statement from each employee in January.",
        "The HR department sends each employee a leave balance statement in January.",
        "en",
        "contradicted",
    ),
    (
        "The customer pays the shop a fee.",
        "The shop pays the customer a fee.",
        "en",
        "contradicted",
    ),
    (
        "The landlord receives the deposit from the tenant.",
        "The landlord returns the deposit to the tenant.",
        "en",
        "contradicted",
    ),
    (
        "The tenant pays the landlord a fee of 50 euros for late payments.",
        "The landlord charges the tenant a fee of 50 euros for late payments.",
        "en",
        "entailed",
    ),
    (
        "The landlord pays the tenant a fee of 50 euros for late payments.",
        "The landlord charges the tenant a fee of 50 euros for late payments.",
        "en",
        "contradicted",
    ),
    (
        "Сотрудник получает справку от отдела кадров.",
        "Справка выдаётся сотруднику отделом кадров.",
        "ru",
        "entailed",
    ),
    (
        "Отдел кадров получает от сотрудника справку.",
        "Отдел кадров выдаёт сотруднику справку.",
        "ru",
        "contradicted",
    ),
    # receiving the action a passive names is that passive
    (
        "Priority 2 tickets receive an answer within eight business hours.",
        "Priority 2 tickets are answered within 8 business hours.",
        "en",
        "entailed",
    ),
    (
        "Priority 2 tickets receive an answer within eight business hours.",
        "Priority 2 tickets are rejected within 8 business hours.",
        "en",
        "insufficient",
    ),
    # an amount whose unit the claim leaves to its neighbour is read with its own part
    (
        "Цельную кровь мужчинам можно сдавать до пяти раз в год, а женщинам до четырёх.",
        "Мужчины могут сдавать цельную кровь не чаще 5 раз в год, а женщины — не чаще 4 раз в год.",
        "ru",
        "entailed",
    ),
    # hours: a bare hour after an afternoon time, a range's start in its end's part of the day
    (
        "如果延迟到下午六点退房，需要加收半天房费，六点以后退房按全天房费收取。",
        "延迟退房至下午6点的，加收半天房费，下午6点以后退房的按全天房费收取。",
        "zh",
        "entailed",
    ),
    (
        "Emergency appointments are available on weekdays between 8 and 10 in the morning.",
        "Emergency appointments are available on weekdays from 8 am to 10 am.",
        "en",
        "entailed",
    ),
    (
        "Emergency appointments are available on weekdays between 8 and 11 in the morning.",
        "Emergency appointments are available on weekdays from 8 am to 10 am.",
        "en",
        "insufficient",
    ),
    # a negation before a hedge negates the verb after it
    (
        "Aspirin usually stops you from giving whole blood.",
        "Aspirin does not usually stop you from giving whole blood.",
        "en",
        "contradicted",
    ),
    (
        "Aspirin usually does not stop you from giving whole blood.",
        "Aspirin does not usually stop you from giving whole blood.",
        "en",
        "entailed",
    ),
    # a clause affirming what the evidence's one unconditional denial names
    (
        "The warranty covers storm damage but not damage caused by fire.",
        "The warranty does not cover damage caused by storms, fire, pests or unauthorised "
        "modifications.",
        "en",
        "contradicted",
    ),
    (
        "The warranty covers storm damage but not damage caused by fire.",
        "The warranty does not cover damage caused by fire, pests or unauthorised modifications.",
        "en",
        "insufficient",
    ),
    # numbers: a decimal percentage in words, quarterly as every three months
    ("组件之后每年衰减不超过百分之零点五五。", "组件此后每年衰减不超过0.55%。", "zh", "entailed"),
    ("组件之后每年衰减不超过百分之零点六。", "组件此后每年衰减不超过0.55%。", "zh", "insufficient"),
    (
        "In dry regions, panels are cleaned every three months.",
        "In dry regions, panels are cleaned quarterly.",
        "en",
        "entailed",
    ),
    (
        "In dry regions, panels are cleaned every four months.",
        "In dry regions, panels are cleaned quarterly.",
        "en",
        "contradicted",
    ),
    (
        "В засушливых регионах панели очищают раз в три месяца.",
        "В засушливых регионах панели очищают ежеквартально.",
        "ru",
        "entailed",
    ),
    ("干旱地区每三个月清洁一次。", "干旱地区每季度清洁一次。", "zh", "entailed"),
    # a deadline ahead of an implicit event is a lead of at least that long; `up to` is not
    (
        "You need to pay no later than 48 hours beforehand.",
        "Lessons must be paid for at least 48 hours in advance.",
        "en",
        "entailed",
    ),
    (
        "Planned maintenance is announced up to 72 hours in advance.",
        "Planned maintenance is announced at least 72 hours in advance.",
        "en",
        "contradicted",
    ),
    (
        "您如果要取消预约，最晚要在就诊前12小时告诉前台。",
        "如需取消预约，请至少在就诊前12小时通知前台。",
        "zh",
        "entailed",
    ),
    (
        "您如果要取消预约，最多要在就诊前12小时告诉前台。",
        "如需取消预约，请至少在就诊前12小时通知前台。",
        "zh",
        "contradicted",
    ),
    # the complement of a bound, read from the side that states it as necessary or as a cap
    (
        "You will be admitted to an exam only if you arrive no more than 30 minutes after it "
        "starts.",
        "Candidates who arrive more than 30 minutes after the start of the exam will not be "
        "admitted.",
        "en",
        "entailed",
    ),
    (
        "You will be admitted to an exam if you arrive no more than 30 minutes after it starts.",
        "Candidates who arrive more than 30 minutes after the start of the exam will not be "
        "admitted.",
        "en",
        "insufficient",
    ),
    (
        "Арендовать больше двух участков нельзя.",
        "Один арендатор может арендовать не более двух участков.",
        "ru",
        "entailed",
    ),
    # `any` before a rule's bare noun; not before a definite one
    (
        "You may be held responsible for any damage found on a bike.",
        "You may be held responsible for damage found on a bike.",
        "en",
        "entailed",
    ),
    (
        "Sandbox keys do not count against any rate limit.",
        "Sandbox keys do not count against the production rate limit.",
        "en",
        "insufficient",
    ),
    # the clause with the claim's amount stays however few words it shares
    (
        "Dogs must be vaccinated against distemper and parvovirus at least 14 days before their "
        "stay.",
        "All dogs must be vaccinated against distemper, parvovirus and kennel cough at least 14 "
        "days before their stay begins.",
        "en",
        "entailed",
    ),
    # a negated requirement negates what it requires
    (
        "You can get an emergency appointment without a referral.",
        "Emergency appointments do not require a referral.",
        "en",
        "entailed",
    ),
    (
        "Emergency appointments require a referral.",
        "Emergency appointments do not require a referral.",
        "en",
        "contradicted",
    ),
    # verbs: after a blanked modal; Russian and Chinese kin verbs in place, strictly
    (
        "The committee may give you a mark of zero for the exam.",
        "The committee may award a mark of zero for the exam.",
        "en",
        "entailed",
    ),
    (
        "На проверку качества возвращённого товара может уйти до двадцати дней.",
        "Проверка качества возвращённого товара может занять до 20 дней.",
        "ru",
        "entailed",
    ),
    (
        "Православные активисты приглашают людей с белыми лентами оппозиции в Храм Христа "
        "Спасителя.",
        "Православные активисты не пускают людей с белыми лентами оппозиции к входу в Храм "
        "Христа Спасителя.",
        "ru",
        "insufficient",
    ),
    (
        "Мужчина сошел с автобуса.",
        "На одной из остановок в автобус вошел мужчина.",
        "ru",
        "insufficient",
    ),
    # a Russian verb of the evidence verb's wiki-ru-wordnet synset (a field) rewords it
    (
        "Клиентов предупреждают о плановых работах минимум за двое суток.",
        "О плановых работах клиенты уведомляются не менее чем за 48 часов.",
        "ru",
        "entailed",
    ),
    # `но` sets two Russian clauses side by side as `but` does: a claim joining the verb of one
    # to the subject of the other mixes them
    (
        "Доступ к уже сохранённым файлам блокируется.",
        "Загрузка новых файлов блокируется, но уже сохранённые файлы остаются доступными для "
        "просмотра и скачивания.",
        "ru",
        "insufficient",
    ),
    (
        "Сохранённые файлы остаются доступными для просмотра.",
        "Загрузка новых файлов блокируется, но уже сохранённые файлы остаются доступными для "
        "просмотра и скачивания.",
        "ru",
        "entailed",
    ),
    # the amount of one of two contrasted cases, stated without what sets that case apart
    (
        "You can upload files of up to 50 GB.",
        "Files uploaded through the desktop app can be up to 50 GB, while uploads through the "
        "web browser are limited to 5 GB per file.",
        "en",
        "insufficient",
    ),
    (
        "With the desktop app you can upload files of up to 50 GB.",
        "Files uploaded through the desktop app can be up to 50 GB, while uploads through the "
        "web browser are limited to 5 GB per file.",
        "en",
        "entailed",
    ),
    # `в течение N` against a deadline (not against a cap: a ninth-round guard)
    (
        "Результаты экзамена публикуются не позже чем через пять рабочих дней после экзамена.",
        "Результаты экзамена публикуются в течение 5 рабочих дней после экзамена.",
        "ru",
        "entailed",
    ),
    (
        "Цена билета уменьшается каждый год на пять процентов.",
        "Цена билета увеличивается каждый год на пять процентов.",
        "ru",
        "contradicted",
    ),
    # a negation governs the verbs coordinated with 或; a claim's own prohibition
    (
        "特价预订一旦确认，就不能取消或更改，也不会退款。",
        "特价预订一经确认不可取消、不可更改，也不予退款。",
        "zh",
        "entailed",
    ),
    (
        "特价预订一旦确认，就可以取消或更改。",
        "特价预订一经确认不可取消、不可更改，也不予退款。",
        "zh",
        "contradicted",
    ),
    (
        "Химические пестициды и минеральные удобрения применять нельзя, разрешены только "
        "органические средства.",
        "Использование химических пестицидов и минеральных удобрений запрещено, допускаются "
        "только органические средства.",
        "ru",
        "insufficient",
    ),
]
"""`rules-3.12`."""


SEVENTEENTH_ROUND = [
    # a Russian action noun with a prefix aligns with the verb without it (`оплата` / `платить`),
    # not with another prefix's noun; `превышение` keeps the ш of `превысить`
    (
        "Деньги вернут на карту, которой вы платили.",
        "Деньги возвращаются на карту, с которой была произведена оплата.",
        "ru",
        "entailed",
    ),
    (
        "Если вы превысите лимит, сервис вернёт код 429.",
        "При превышении лимита сервис возвращает код 429.",
        "ru",
        "entailed",
    ),
    (
        "Если вы превысите лимит, сервис вернёт код 503.",
        "При превышении лимита сервис возвращает код 429.",
        "ru",
        "contradicted",
    ),
    # a decimal comma is no clause boundary
    (
        "Если дом сдаётся в аренду, его страхуют с коэффициентом 1,5.",
        "Дома, сдаваемые в аренду, страхуются с коэффициентом 1,5.",
        "ru",
        "entailed",
    ),
    (
        "Если дом сдаётся в аренду, его страхуют с коэффициентом 1,3.",
        "Дома, сдаваемые в аренду, страхуются с коэффициентом 1,5.",
        "ru",
        "contradicted",
    ),
    # `дольше чем на N` bounds from below, as `дольше N` does
    (
        "Брать велосипед дольше чем на два часа нельзя.",
        "Велосипед можно взять не более чем на 2 часа.",
        "ru",
        "insufficient",
    ),
    # the case a rule's `в остальных случаях` names, stated with the other case's amount
    (
        "При покупке дешевле 2000 рублей доставка стоит 250 рублей.",
        "Доставка бесплатна при покупке от 2000 рублей, в остальных случаях она стоит 250 рублей.",
        "ru",
        "entailed",
    ),
    (
        "При покупке от 2000 рублей доставка стоит 250 рублей.",
        "Доставка бесплатна при покупке от 2000 рублей, в остальных случаях она стоит 250 рублей.",
        "ru",
        "insufficient",
    ),
    # clauses joined by `, and` that say the same kind of thing of two things
    (
        "Parcels sent by courier can be collected at any post office.",
        "Parcels sent by courier must be collected from the depot, and parcels sent by mail "
        "must be collected at a post office.",
        "en",
        "insufficient",
    ),
    (
        "Parcels sent by courier must be collected from the depot.",
        "Parcels sent by courier must be collected from the depot, and parcels sent by mail "
        "must be collected at a post office.",
        "en",
        "entailed",
    ),
    # the days of the week of the clause that says what the claim says
    (
        "游泳馆每周三闭馆。",
        "游泳馆每周一闭馆，周二至周日的开放时间为8:00至22:00。",
        "zh",
        "contradicted",
    ),
    (
        "游泳馆每周一闭馆。",
        "游泳馆每周一闭馆，周二至周日的开放时间为8:00至22:00。",
        "zh",
        "entailed",
    ),
    (
        "The museum is closed on Wednesdays.",
        "The museum is closed on Tuesdays, and it is open from Wednesday to Sunday.",
        "en",
        "contradicted",
    ),
    (
        "Музей закрыт по средам.",
        "Музей закрыт по вторникам, а со среды по воскресенье работает с 10:00 до 18:00.",
        "ru",
        "contradicted",
    ),
    # who does it, after `由`
    (
        "未按时取件的包裹退回时，运费由收件人承担。",
        "未按时取件的包裹将退回寄件人，退回运费由寄件人承担。",
        "zh",
        "contradicted",
    ),
    (
        "如果商品没有质量问题，退货运费由买家自己承担。",
        "除非商品存在质量问题，否则退货运费由买家承担。",
        "zh",
        "entailed",
    ),
    # a rule about harm done on purpose is not a rule about all harm
    (
        "Damage caused by guests is not covered.",
        "Damage caused deliberately by guests is not covered.",
        "en",
        "insufficient",
    ),
    (
        "Ущерб, причинённый соседями, не возмещается.",
        "Ущерб, причинённый умышленно соседями или арендаторами, не возмещается.",
        "ru",
        "insufficient",
    ),
    (
        "对于地震造成的损失，保险公司不负责赔偿。",
        "因地震或被保险人故意行为造成的损失，保险公司不承担赔偿责任。",
        "zh",
        "entailed",
    ),
    # no limit, or any time, where the evidence sets one
    (
        "Members may bring a guest as often as they like.",
        "Members may bring a guest up to 6 times per year.",
        "en",
        "insufficient",
    ),
    (
        "Season tickets can be upgraded at any time for a £5 fee.",
        "Season tickets can be upgraded before the first match for a £5 fee.",
        "en",
        "insufficient",
    ),
    (
        "会员可以随时改签。",
        "会员可在发车前2小时改签。",
        "zh",
        "insufficient",
    ),
    # the later of two parallel clauses, named by all that sets it apart, states the amount
    (
        "丢失精装图书按原价的3倍赔偿。",
        "丢失图书须按原价的3倍赔偿，精装图书按原价的4倍赔偿。",
        "zh",
        "contradicted",
    ),
    (
        "丢失精装图书按原价的4倍赔偿。",
        "丢失图书须按原价的3倍赔偿，精装图书按原价的4倍赔偿。",
        "zh",
        "entailed",
    ),
    # `one week` is an amount (`7 days`), not `one` before a counted noun
    (
        "Magazines are lent for one week.",
        "Books are lent for 4 weeks, while magazines are lent for 7 days.",
        "en",
        "entailed",
    ),
    # `N% off`, `half price` are a discount of that share
    (
        "Pupils get museum memberships at 30% off.",
        "Museum memberships are available at a 30% discount to pupils.",
        "en",
        "entailed",
    ),
    (
        "Pupils get museum memberships at 40% off.",
        "Museum memberships are available at a 30% discount to pupils.",
        "en",
        "contradicted",
    ),
    (
        "Hybrid cars get the pass at half price.",
        "Hybrid cars qualify for a 50% discount on the pass price.",
        "en",
        "entailed",
    ),
    # an odd amount beside the evidence's own is not stated, not stated otherwise
    (
        "The pass costs £80 for twelve months or £45 for six months.",
        "An annual pass costs £80, and a 6-month pass costs £45.",
        "en",
        "insufficient",
    ),
    (
        "The pass costs £80 for three months.",
        "An annual pass costs £80, and a 6-month pass costs £45.",
        "en",
        "contradicted",
    ),
    # Chinese: `之内` after `个工作日`, `一毛钱`, the 约 of 预约, a shortened word (`团课`),
    # `…例外` closing a sentence, `，再` as a next step, `放到` / `放在`
    (
        "更换会员卡的会员应当在五个工作日之内到前台办理变更手续。",
        "会员更换会员卡的，应在5个工作日内到前台办理变更手续。",
        "zh",
        "entailed",
    ),
    (
        "逾期还书的，每本每天要交两毛钱滞纳金。",
        "逾期归还的图书每册每天收取滞纳金0.2元。",
        "zh",
        "entailed",
    ),
    (
        "逾期还书的，每本每天要交一毛钱滞纳金。",
        "逾期归还的图书每册每天收取滞纳金0.2元。",
        "zh",
        "contradicted",
    ),
    (
        "每位学员每周能预约的免费体验课不超过两节。",
        "每位学员每周最多可预约2节免费体验课。",
        "zh",
        "entailed",
    ),
    (
        "每位会员每周能预约的免费团课不超过三节。",
        "每位会员每周最多可预约3节免费团体课。",
        "zh",
        "entailed",
    ),
    (
        "会员每周可以免费上三节团课。",
        "每位会员每周最多可预约3节免费团体课。",
        "zh",
        "insufficient",
    ),
    (
        "没有门禁卡的人员不能进入机房，持有临时通行证的维修人员例外。",
        "除持有临时通行证的维修人员外，未持门禁卡的人员不得进入机房。",
        "zh",
        "entailed",
    ),
    (
        "没有门禁卡的人员不能进入机房。",
        "除持有临时通行证的维修人员外，未持门禁卡的人员不得进入机房。",
        "zh",
        "insufficient",
    ),
    (
        "来访人员需要先到前台登记，然后领取访客证。",
        "来访人员须先在前台登记，再领取访客证。",
        "zh",
        "entailed",
    ),
    (
        "来访人员可以先领取访客证，然后再到前台登记。",
        "来访人员须先在前台登记，再领取访客证。",
        "zh",
        "contradicted",
    ),
    # a modal of the evidence offers no content to a claim word with a rare parse of it
    (
        "Результаты анализов мочи обычно готовы через 1–2 рабочих дня.",
        "Приём может быть перенесён на другое время. Результаты анализов крови обычно готовы "
        "через 1–2 рабочих дня.",
        "ru",
        "insufficient",
    ),
    (
        "Результаты анализов крови обычно готовы через 1–2 рабочих дня.",
        "Приём может быть перенесён на другое время. Результаты анализов крови обычно готовы "
        "через 1–2 рабочих дня.",
        "ru",
        "entailed",
    ),
    # the amount of the later clause, named by its own words
    (
        "You can borrow up to 6,000 pounds a year for housing.",
        "Members can borrow up to 6,000 pounds a year for courses and up to 3,500 pounds a "
        "year for housing.",
        "en",
        "contradicted",
    ),
    (
        "You can borrow up to 3,500 pounds a year for housing.",
        "Members can borrow up to 6,000 pounds a year for courses and up to 3,500 pounds a "
        "year for housing.",
        "en",
        "entailed",
    ),
    # the means that set one of two contrasted cases apart, left out
    (
        "Attachments are limited to 25 MB each.",
        "Attachments sent through the mobile app are limited to 25 MB each, while the desktop "
        "client has no size limit.",
        "en",
        "insufficient",
    ),
    # two steps in the other order
    (
        "Сначала нужно сообщить арендодателю, а затем вызвать аварийную службу.",
        "При протечке жилец должен сначала вызвать аварийную службу и только затем сообщить "
        "арендодателю.",
        "ru",
        "contradicted",
    ),
    (
        "First pay the deposit, then sign the contract.",
        "Tenants must first sign the contract and only then pay the deposit.",
        "en",
        "contradicted",
    ),
    # two Chinese clauses whose subjects trade places
    (
        "上门安装服务只覆盖郊区，市区用户要额外支付30元上门费。",
        "上门安装服务仅覆盖市区，郊区用户需额外支付30元上门费。",
        "zh",
        "contradicted",
    ),
    # a Chinese rate per period (`每月` / `每学期`)
    (
        "托管费为每学期900元。",
        "托管费每月900元，按学期收取。",
        "zh",
        "contradicted",
    ),
    # a necessary condition of two parts made sufficient by one of them
    (
        "只要年满16周岁，就可以报名参加。",
        "学员年满16周岁且通过体能测试方可报名。",
        "zh",
        "insufficient",
    ),
    (
        "If you are a resident, you can use the pool.",
        "You can use the pool only if you are a resident and have a valid pass.",
        "en",
        "insufficient",
    ),
    # a cause inside the case a rule is about
    (
        "学员只要连续缺课满10天，就可以按比例退还学费。",
        "学员因病连续缺课满10天的，可按比例退还学费。",
        "zh",
        "insufficient",
    ),
    # negated statements that say what the evidence says
    (
        "Cancelling a booking does not delete any of your photos.",
        "If you cancel a booking, none of your photos are deleted.",
        "en",
        "entailed",
    ),
    (
        "The shop does not open on Mondays.",
        "The shop is closed on Mondays.",
        "en",
        "insufficient",
    ),
    (
        "Being over the limit stops you from sending messages.",
        "If you exceed the limit, you cannot send messages.",
        "en",
        "insufficient",
    ),
    # `twice a year` is `every 6 months`
    (
        "Filters should be replaced twice a year.",
        "Filters should be replaced every 6 months.",
        "en",
        "entailed",
    ),
    (
        "Filters should be replaced three times a year.",
        "Filters should be replaced every 6 months.",
        "en",
        "contradicted",
    ),
    # `那一天` is the day named; a colon time after `下午` in a range's second end
    (
        "保修期从购买的那一天开始算。",
        "保修期自购买之日起计算，无发票的按出厂日期后90天起算。",
        "zh",
        "insufficient",
    ),
    (
        "每天下午3:30到4:30离校。",
        "每天离校时间为下午3点半至4点半。",
        "zh",
        "entailed",
    ),
    # `, or` before what follows when the rule is not kept
    (
        "Returning a car with less than a full tank costs 30 euros.",
        "Cars must be returned with a full tank, or a fee of 30 euros is charged.",
        "en",
        "insufficient",
    ),
    # set 25 read: a claim that says `same` itself; a negation of the other contrasted case;
    # spelled thousands; Chinese fractions and `一年到头`; a decimal before 以上; a change to a
    # value is no cap; `только` before a proviso; a means phrase of one contrasted clause;
    # events around `после` swapped; the later clause's amount beside a rate
    (
        "If you and a friend live at the same address, a joint pass for the two of you costs £90.",
        "A single pass costs £50 per year, and a joint pass for two adults living at the same "
        "address costs £90.",
        "en",
        "insufficient",
    ),
    (
        "You get a full refund if you cancel at least 72 hours before the start.",
        "Cancellations made at least 72 hours before the start receive a full refund, but later "
        "cancellations are not refunded.",
        "en",
        "entailed",
    ),
    (
        "Абонемент на галёрку стоит три тысячи двести рублей.",
        "Стоимость абонемента составляет 9000 рублей для партера и 3200 рублей для галёрки.",
        "ru",
        "entailed",
    ),
    (
        "Абонемент на галёрку стоит три тысячи рублей.",
        "Стоимость абонемента составляет 9000 рублей для партера и 3200 рублей для галёрки.",
        "ru",
        "contradicted",
    ),
    (
        "每节课大约持续四分之三小时。",
        "每节课约45分钟。",
        "zh",
        "insufficient",
    ),
    (
        "身高1.4米以上的儿童可以免票入园。",
        "身高1.4米以下的儿童免票入园，但须由成人陪同。",
        "zh",
        "contradicted",
    ),
    (
        "В часы пик скорость загрузки автоматически снижается до 5 Мбит/с.",
        "В часы пик скорость загрузки может автоматически снижаться до 5 Мбит/с.",
        "ru",
        "insufficient",
    ),
    (
        "Если подростка до 14 лет сопровождает взрослый, он может посещать бассейн.",
        "Подростки до 14 лет могут посещать бассейн только в сопровождении взрослого.",
        "ru",
        "insufficient",
    ),
    (
        "Lost keys are replaced free of charge.",
        "Keys lost by the landlord are replaced free of charge, but replacement keys for any "
        "other reason cost £30.",
        "en",
        "insufficient",
    ),
    (
        "Прививку делают не раньше чем через 14 дней после осмотра.",
        "Осмотр проводится не ранее чем через 14 дней после прививки.",
        "ru",
        "contradicted",
    ),
    (
        "Осмотр проводят не раньше чем через 14 дней после прививки.",
        "Осмотр проводится не ранее чем через 14 дней после прививки.",
        "ru",
        "entailed",
    ),
    (
        "兔子的寄养费为每晚50元。",
        "狗狗寄养费为每晚50元，兔子为每晚30元。",
        "zh",
        "contradicted",
    ),
    # numbers are not shortened words (`九折` is no `九五折`); a merged claim's date and times
    (
        "老会员续卡可以享受八折优惠。",
        "老会员续卡可享受八五折优惠，同时推荐新会员的，再减100元。",
        "zh",
        "insufficient",
    ),
    (
        "Outside the holiday period from 1 July to 31 August, the library opens at 09:00 and "
        "closes at 20:00.",
        "During the holiday period, from 1 July to 31 August, the library is open from 10:00 to "
        "16:00. Outside that period, it opens at 09:00 and closes at 20:00.",
        "en",
        "entailed",
    ),
]
"""`rules-3.13`."""


EIGHTEENTH_ROUND = [
    # a state's antonym negates it: `doesn't open on Sundays` is `closed on Sundays`; a graded
    # word is no such state (`warm` is not `not cool`)
    (
        "The pharmacy doesn't open on Sundays.",
        "The pharmacy is open from 08:00 to 19:00 on weekdays and from 09:00 to 13:00 on "
        "Saturdays, and it is closed on Sundays.",
        "en",
        "entailed",
    ),
    (
        "The pharmacy is open on Sunday mornings from 09:00 to 13:00.",
        "The pharmacy is open from 08:00 to 19:00 on weekdays and from 09:00 to 13:00 on "
        "Saturdays, and it is closed on Sundays.",
        "en",
        "contradicted",
    ),
    # each clause of a claim is read against the days of its own clause
    (
        "Deliveries run Monday to Saturday, and in some postcodes you can get a Sunday "
        "delivery for £4 extra.",
        "We deliver from Monday to Saturday, and Sunday delivery is available in selected "
        "postcodes for an extra £4.",
        "en",
        "insufficient",
    ),
    (
        "По понедельникам бассейн открыт с 7:00 до 22:00.",
        "Бассейн открыт со вторника по воскресенье с 7:00 до 22:00, а понедельник является "
        "санитарным днём.",
        "ru",
        "contradicted",
    ),
    # `тысячу шестьсот` is 1600
    (
        "Дополнительный час вождения стоит тысячу шестьсот рублей.",
        "Дополнительный час вождения сверх программы стоит 1600 рублей.",
        "ru",
        "entailed",
    ),
    (
        "Дополнительный час вождения стоит тысячу семьсот рублей.",
        "Дополнительный час вождения сверх программы стоит 1600 рублей.",
        "ru",
        "contradicted",
    ),
    # `免配送费` is free, as `免收` is; `避免` is not
    (
        "订单满88元免收配送费。",
        "订单满88元免配送费，不满88元收取配送费8元。",
        "zh",
        "entailed",
    ),
    # `这一天` names a day, it counts none
    (
        "每周一是游泳馆的闭馆日，这一天不开放。",
        "市民游泳馆每周一闭馆，周二至周日6:30至21:30开放。",
        "zh",
        "insufficient",
    ),
    # one clause's predicate said of the other clause's subject too
    (
        "遇到雷雨天气，室内和室外泳池都会临时关闭。",
        "遇雷雨等恶劣天气，室外泳池将临时关闭，室内泳池照常开放。",
        "zh",
        "insufficient",
    ),
    (
        "In stormy weather, both the indoor and the outdoor pools close.",
        "In stormy weather the outdoor pool closes, while the indoor pool stays open.",
        "en",
        "insufficient",
    ),
    (
        "遇到雷雨天气，室外泳池会临时关闭。",
        "遇雷雨等恶劣天气，室外泳池将临时关闭，室内泳池照常开放。",
        "zh",
        "entailed",
    ),
    # `these medicines` names the antibiotics before it: no kind of medicine aligns with it
    (
        "Refill requests for antibiotics and painkillers are not accepted.",
        "Refill requests for antibiotics are not accepted, because these medicines require a "
        "new consultation.",
        "en",
        "insufficient",
    ),
    # `斤` is half a kilogram
    ("单件快件的重量不能超过30斤。", "单件快件重量不得超过30公斤。", "zh", "contradicted"),
    ("单件快件的重量不能超过六十斤。", "单件快件重量不得超过30公斤。", "zh", "entailed"),
    # `can't be heavier than` bounds from above, and so does the comparative after its `or`
    (
        "A parcel can't be heavier than 30 kg or longer than 120 cm.",
        "Each parcel may weigh up to 30 kg and must not be longer than 120 cm on any side.",
        "en",
        "entailed",
    ),
    (
        "A parcel can't be heavier than 20 kg.",
        "Each parcel may weigh up to 30 kg and must not be longer than 120 cm on any side.",
        "en",
        "contradicted",
    ),
    # a sentence opening with an infinitive and closing with its prohibition is one rule
    (
        "Во время экзамена нельзя пользоваться смарт-часами.",
        "Пользоваться телефонами, смарт-часами и наушниками во время экзамена запрещено.",
        "ru",
        "entailed",
    ),
    (
        "Во время экзамена можно пользоваться смарт-часами.",
        "Пользоваться телефонами, смарт-часами и наушниками во время экзамена запрещено.",
        "ru",
        "contradicted",
    ),
    # `к возврату не принимаются` refuses the return
    (
        "Товары, бывшие в употреблении, можно вернуть через службу.",
        "Ювелирные изделия и товары, бывшие в употреблении, к возврату через службу не "
        "принимаются.",
        "ru",
        "contradicted",
    ),
    (
        "Товары, бывшие в употреблении, нельзя вернуть через службу.",
        "Ювелирные изделия и товары, бывшие в употреблении, к возврату через службу не "
        "принимаются.",
        "ru",
        "entailed",
    ),
    # the amount of a requirement dropped (`with written notice` for `30 days' written
    # notice`); `a month's notice` is one month, not the `each month` of a renewal
    (
        "You can cancel your membership with written notice.",
        "Memberships can be cancelled with 30 days' written notice.",
        "en",
        "insufficient",
    ),
    (
        "You can cancel your membership with a month's written notice.",
        "Memberships renew automatically each month and can be cancelled with 30 days' "
        "written notice.",
        "en",
        "insufficient",
    ),
    (
        "You can cancel your membership with 30 days' written notice.",
        "Memberships can be cancelled with 30 days' written notice.",
        "en",
        "entailed",
    ),
    # a Chinese negation of a word the segmenter parts (`不支持停卡`) is about the claim's
    # `停卡`; an A-not-A question negates nothing
    (
        "季卡会员可以申请停卡。",
        "年卡会员每年可申请停卡一次，月卡和季卡不支持停卡。",
        "zh",
        "contradicted",
    ),
    (
        "年卡会员每年可以停卡一次。",
        "年卡会员每年可申请停卡一次，月卡和季卡不支持停卡。",
        "zh",
        "entailed",
    ),
    # a conjunct that denies the very verb the claim asserts is no statement left out
    (
        "Customers with a smart meter must submit readings.",
        "Customers with a smart meter send readings automatically and do not need to submit them.",
        "en",
        "contradicted",
    ),
    (
        "Customers with a smart meter still have to submit a reading every month.",
        "Please submit a meter reading at least once a month, or we will estimate your bill. "
        "Customers with a smart meter send readings automatically and do not need to submit "
        "them.",
        "en",
        "contradicted",
    ),
    (
        "Customers with a smart meter send their readings automatically.",
        "Customers with a smart meter send readings automatically and do not need to submit them.",
        "en",
        "entailed",
    ),
    # `на пятые сутки` names a day, it lasts none
    (
        "Полис вступает в силу на пятые сутки после оплаты премии и действует год.",
        "Полис вступает в силу на пятый день после оплаты премии и действует один год.",
        "ru",
        "insufficient",
    ),
    # amounts of different units, each the evidence's, in the evidence's order; not when they
    # trade places, nor amounts of one unit traded between two things
    (
        "Переговорную можно забронировать максимум на два часа подряд и не раньше чем за две "
        "недели.",
        "Переговорную можно забронировать не более чем на 2 часа подряд и не ранее чем за 14 дней.",
        "ru",
        "entailed",
    ),
    (
        "Переговорную можно забронировать максимум на 14 дней подряд и не раньше чем за два часа.",
        "Переговорную можно забронировать не более чем на 2 часа подряд и не ранее чем за 14 дней.",
        "ru",
        "contradicted",
    ),
    (
        "Владелец полугодовой карты может заморозить её до 30 дней, а владелец годовой — до 14 "
        "дней.",
        "Владелец годовой карты может заморозить её до 30 дней, а владелец полугодовой — до 14 "
        "дней.",
        "ru",
        "contradicted",
    ),
    # `в месяц бесплатно` is a rate per month, as `ежемесячно` is
    (
        "Резиденты ежемесячно получают четыре бесплатных часа в переговорной.",
        "Каждый резидент получает 4 часа бронирования переговорной комнаты в месяц бесплатно, "
        "дополнительный час стоит 700 рублей.",
        "ru",
        "entailed",
    ),
    # `退还给您`: the verb and the `给` of whom it goes to; each clause of a merged Chinese
    # claim ordered against the clause it restates
    (
        "要退固定工位，得提前三十天书面通知，押金在工位验收后十五个工作日内退还给您。",
        "如需退租固定工位，须提前30天书面通知，押金在验收工位后15个工作日内退还。",
        "zh",
        "entailed",
    ),
    (
        "要退固定工位，得提前三十天书面通知，押金在工位验收前退还给您。",
        "如需退租固定工位，须提前30天书面通知，押金在验收工位后15个工作日内退还。",
        "zh",
        "contradicted",
    ),
    (
        "费用可以在治疗结束后缴纳，治疗结束后可开具发票。",
        "费用须在治疗前缴纳，治疗结束后可开具发票。",
        "zh",
        "contradicted",
    ),
    # `2 failed attempts the parcel …` and `по инициативе ученика` frame nothing; `能否` hedges as
    # `是否` does; `-гать` verbs and their `-жение` nouns share a root
    (
        "After 2 failed delivery attempts, the parcel is taken to your nearest pickup point.",
        "After a failed delivery, we try again on the next working day, and after 2 failed "
        "attempts the parcel is taken to your nearest pickup point.",
        "en",
        "entailed",
    ),
    (
        "Прямые выборы мэра отменили.",
        "Трое депутатов выдвинули инициативу отмены прямых выборов мэра.",
        "ru",
        "insufficient",
    ),
    (
        "会员可以申请延迟退房到下午两点，一定会批准。",
        "会员可申请延迟退房至下午2点，是否批准视当日房态而定。",
        "zh",
        "insufficient",
    ),
    (
        "Если договор расторгают, возвращается стоимость непройденных занятий за вычетом 10%.",
        "При расторжении договора возвращается стоимость непройденных занятий за вычетом 10%.",
        "ru",
        "entailed",
    ),
    # time given to act is what `may … within` permits: `you have 10 days to ask`, `у вас есть
    # две недели, чтобы …`; not a longer window
    (
        "You have ten working days from the publication of a mark to ask for a review.",
        "A student may request a review of a mark within 10 working days of its publication.",
        "en",
        "entailed",
    ),
    (
        "You have twenty working days from the publication of a mark to ask for a review.",
        "A student may request a review of a mark within 10 working days of its publication.",
        "en",
        "contradicted",
    ),
    (
        "У вас есть две недели с момента получения посылки, чтобы оформить возврат.",
        "Оформить возврат товара можно в течение 14 дней после получения посылки.",
        "ru",
        "entailed",
    ),
    # the infinitive a Russian prohibition denies meets its prefixed partner (`гулять` /
    # `выгуливать`); found by set 28's moved cases
    (
        "Гулять с собакой на детской площадке во дворе нельзя.",
        "Выгуливать собак на детской площадке и газонах внутри двора запрещено.",
        "ru",
        "entailed",
    ),
    (
        "Гулять с собакой на детской площадке во дворе можно.",
        "Выгуливать собак на детской площадке и газонах внутри двора запрещено.",
        "ru",
        "contradicted",
    ),
    # a word naming the amount itself (`价格`, `costs`) tells no clause of a list apart
    (
        "固定工位的价格是每月980元。",
        "灵活工位日票价格为88元，月卡为980元，固定工位每月1680元。",
        "zh",
        "contradicted",
    ),
    (
        "固定工位的价格是每月1680元。",
        "灵活工位日票价格为88元，月卡为980元，固定工位每月1680元。",
        "zh",
        "entailed",
    ),
    (
        "A fixed desk costs 980 yuan a month.",
        "A flexible day pass costs 88 yuan, a monthly pass 980 yuan, and a fixed desk 1680 yuan "
        "a month.",
        "en",
        "contradicted",
    ),
    # `pay no interest` is `free` of it, as `without paying interest` is (`pay interest` for it
    # is not accepted; the clash is not named)
    (
        "Graduate account holders can have an overdraft of up to £1,500 without paying interest.",
        "Graduate account holders pay no interest on an overdraft of up to £1,500.",
        "en",
        "entailed",
    ),
    (
        "Graduate account holders pay interest on an overdraft of up to £1,500.",
        "Graduate account holders pay no interest on an overdraft of up to £1,500.",
        "en",
        "insufficient",
    ),
]
"""`rules-3.14`."""

NINETEENTH_ROUND = [
    (
        "No upload can be bigger than 250 MB.",
        "Files uploaded on it may not exceed 250 MB each.",
        "en",
        "entailed",
    ),
    (
        "No upload can be larger than 500 MB.",
        "Files uploaded on it may not exceed 250 MB each.",
        "en",
        "contradicted",
    ),
    (
        "No upload can be smaller than 250 MB.",
        "Files uploaded on it may not exceed 250 MB each.",
        "en",
        "contradicted",
    ),
    (
        "These effects usually disappear within one to two days without treatment.",
        "These effects usually disappear within 1 to 2 days without treatment.",
        "en",
        "entailed",
    ),
    (
        "These effects usually disappear within one to three days without treatment.",
        "These effects usually disappear within 1 to 2 days without treatment.",
        "en",
        "contradicted",
    ),
    (
        "Take one or two tablets every 4 to 6 hours.",
        "Take 2 or 3 tablets every 4 to 6 hours.",
        "en",
        "insufficient",
    ),
    (
        "押金5000元也可以用现金缴纳。",
        "押金5000元不接受现金。",
        "zh",
        "contradicted",
    ),
    (
        "取车时也可以用现金缴纳押金。",
        "取车时需通过信用卡预授权冻结押金5000元，不接受现金押金。",
        "zh",
        "contradicted",
    ),
    (
        "它减价了",
        "只是不知它为何减价",
        "zh",
        "entailed",
    ),
    (
        "押金5000元不可以用现金缴纳。",
        "押金5000元不接受现金。",
        "zh",
        "insufficient",
    ),
    (
        "По истечении срока годности применение препарата недопустимо.",
        "Срок годности составляет 3 года, и после его истечения препарат применять нельзя.",
        "ru",
        "entailed",
    ),
    (
        "По истечении срока годности применение препарата допустимо.",
        "Срок годности составляет 3 года, и после его истечения препарат применять нельзя.",
        "ru",
        "contradicted",
    ),
    (
        "Бронирование можно отменить бесплатно хотя бы за 72 часа до даты заезда.",
        "Бронирование можно отменить бесплатно не позднее чем за 72 часа до даты заезда.",
        "ru",
        "entailed",
    ),
    (
        "Для заморозки нужно подать письменное заявление хотя бы за день до её начала.",
        "Заморозка оформляется по письменному заявлению, поданному не позднее чем за 1 день до её начала.",
        "ru",
        "entailed",
    ),
    (
        "Для заморозки нужно подать письменное заявление хотя бы за два дня до её начала.",
        "Заморозка оформляется по письменному заявлению, поданному не позднее чем за 1 день до её начала.",
        "ru",
        "contradicted",
    ),
    (
        "Записаться может каждый житель города старше 14 лет.",
        "Записаться в библиотеку может любой житель города старше 14 лет.",
        "ru",
        "entailed",
    ),
    (
        "Каждый житель города может записаться.",
        "Некоторые жители города могут записаться.",
        "ru",
        "insufficient",
    ),
    (
        "Персональные тренировки оплачиваются отдельно, по 1 800 рублей за каждую.",
        "Персональные тренировки оплачиваются отдельно по 1 800 рублей за тренировку.",
        "ru",
        "entailed",
    ),
    (
        "Каждая персональная тренировка оплачивается отдельно.",
        "Некоторые персональные тренировки оплачиваются отдельно.",
        "ru",
        "insufficient",
    ),
    (
        "您最多可以同时借阅十本。",
        "每证最多同时借阅10册。",
        "zh",
        "entailed",
    ),
    (
        "您最多可以同时借阅十一本。",
        "每证最多同时借阅10册。",
        "zh",
        "contradicted",
    ),
    (
        "每间客房最多可以住两次。",
        "每间客房最多可入住2名成人和1名12岁以下儿童。",
        "zh",
        "insufficient",
    ),
    (
        "对本品过敏的人，以及妊娠晚期和哺乳期的妇女，都禁止使用本品。",
        "对本品及其他非甾体抗炎药过敏者禁用。妊娠晚期妇女及哺乳期妇女禁用。",
        "zh",
        "entailed",
    ),
    (
        "办理会籍转让时，转让双方都必须到店，还要交200元手续费。",
        "会籍转让须由转让双方共同到店办理，并支付200元手续费。",
        "zh",
        "entailed",
    ),
    (
        "所有会员都可以使用游泳池。",
        "游泳池仅对白金卡会员开放。",
        "zh",
        "insufficient",
    ),
    (
        "The surcharge is €15 a day and never goes above €150 per rental.",
        "Drivers pay a surcharge of €15 per day, capped at €150 per rental.",
        "en",
        "entailed",
    ),
    (
        "The surcharge is €15 a day and never goes above €200 per rental.",
        "Drivers pay a surcharge of €15 per day, capped at €150 per rental.",
        "en",
        "contradicted",
    ),
    (
        "You must give at least two weeks' notice.",
        "You must give at least 14 days' notice.",
        "en",
        "entailed",
    ),
    (
        "Opening hours may change, with at least a week's notice given on the website.",
        "We may change opening hours and will give at least 7 days' notice on our website.",
        "en",
        "entailed",
    ),
    (
        "You have to check out no later than 11 am.",
        "Check-out is by 11:00.",
        "en",
        "entailed",
    ),
    (
        "You have to check out at 11 am.",
        "Check-out is by 11:00.",
        "en",
        "insufficient",
    ),
    (
        "The first half hour of every journey is free.",
        "The first 30 minutes of every journey are free.",
        "en",
        "entailed",
    ),
    (
        "The first hour of every journey is free.",
        "The first 30 minutes of every journey are free.",
        "en",
        "insufficient",
    ),
    (
        "Годовой абонемент стоит 36 тысяч рублей.",
        "Годовой абонемент стоит 36 000 рублей.",
        "ru",
        "entailed",
    ),
    (
        "Годовой абонемент стоит 36 тысяч рублей.",
        "Годовой абонемент стоит 35 000 рублей.",
        "ru",
        "contradicted",
    ),
    (
        "No single journey can go on for more than a day.",
        "A single journey may not last longer than 24 hours.",
        "en",
        "entailed",
    ),
    (
        "A journey can last at most one day.",
        "A single journey may not last longer than 24 hours.",
        "en",
        "entailed",
    ),
    (
        "A journey can last more than one day.",
        "A single journey may not last longer than 24 hours.",
        "en",
        "insufficient",
    ),
    (
        "Not a single file is deleted.",
        "No file is deleted.",
        "en",
        "entailed",
    ),
    (
        "Not a single file is deleted.",
        "Every file is deleted.",
        "en",
        "contradicted",
    ),
    (
        "Refunds are made after two weeks.",
        "Refunds are made within 14 days.",
        "en",
        "insufficient",
    ),
    (
        "Cancelling less than two days before pick-up costs one day's rental.",
        "Free cancellation is available up to 48 hours before the pick-up time, and later cancellations cost one day's rental.",
        "en",
        "entailed",
    ),
    (
        "Library membership is free for everyone.",
        "Library membership is free for anyone who lives, works or studies in Riverside.",
        "en",
        "insufficient",
    ),
    (
        "Library membership is free for anyone who lives in Riverside.",
        "Library membership is free for anyone who lives, works or studies in Riverside.",
        "en",
        "entailed",
    ),
    (
        "Скидка предоставляется всем.",
        "Скидка предоставляется всем, кто оформил карту.",
        "ru",
        "insufficient",
    ),
    (
        "Скидка предоставляется всем, кто оформил карту.",
        "Скидка предоставляется всем, кто оформил карту.",
        "ru",
        "entailed",
    ),
    (
        "Expense claims above £1,000 need approval from either the Finance Director or the line manager.",
        "Expense claims above £1,000 must be approved by the Finance Director as well as by the line manager.",
        "en",
        "insufficient",
    ),
    (
        "Expense claims above £1,000 must be approved by both the Finance Director and the line manager.",
        "Expense claims above £1,000 must be approved by the Finance Director as well as by the line manager.",
        "en",
        "entailed",
    ),
    (
        "已删除的文件会在回收站中保留30天。",
        "已删除的文件会在回收站中保留30天，但免费版仅保留7天。",
        "zh",
        "insufficient",
    ),
    (
        "免费版已删除的文件仅保留7天。",
        "已删除的文件会在回收站中保留30天，但免费版仅保留7天。",
        "zh",
        "entailed",
    ),
    (
        "已删除的文件会在回收站中保留30天。",
        "已删除的文件会在回收站中保留30天。",
        "zh",
        "entailed",
    ),
    (
        "Отменить бронирование без оплаты можно не позднее чем за 48 часов до начала аренды.",
        "Бесплатно отменить бронирование можно не позднее чем за 48 часов до начала аренды.",
        "ru",
        "entailed",
    ),
    (
        "Отменить бронирование без оплаты нельзя.",
        "Бесплатно отменить бронирование можно не позднее чем за 48 часов до начала аренды.",
        "ru",
        "contradicted",
    ),
    (
        "Бесплатно отменить бронирование можно не позднее чем за 48 часов до начала аренды.",
        "Отменить бронирование без взимания платы можно не позднее чем за 48 часов до начала аренды.",
        "ru",
        "entailed",
    ),
    (
        "Отменить бронирование с оплатой можно не позднее чем за 48 часов до начала аренды.",
        "Бесплатно отменить бронирование можно не позднее чем за 48 часов до начала аренды.",
        "ru",
        "insufficient",
    ),
    (
        "If you pay for a year in advance, Plus and Pro are 20% cheaper.",
        "Paying for a year in advance gives a discount of 20% on the Plus and Pro plans.",
        "en",
        "entailed",
    ),
    (
        "If you pay for a year in advance, Plus and Pro are 30% cheaper.",
        "Paying for a year in advance gives a discount of 20% on the Plus and Pro plans.",
        "en",
        "contradicted",
    ),
    (
        "If you pay for a year in advance, Plus and Pro are 20% more expensive.",
        "Paying for a year in advance gives a discount of 20% on the Plus and Pro plans.",
        "en",
        "insufficient",
    ),
    (
        "Non-refundable rates are 15% more expensive.",
        "Non-refundable rates are 15% cheaper.",
        "en",
        "insufficient",
    ),
    (
        "Non-refundable rates are 15% cheaper.",
        "Non-refundable rates come with a 15% discount.",
        "en",
        "entailed",
    ),
]
"""`rules-3.15`."""

ROUNDS = {
    "fifth": FIFTH_ROUND,
    "sixth": SIXTH_ROUND,
    "seventh": SEVENTH_ROUND,
    "eighth": EIGHTH_ROUND,
    "ninth": NINTH_ROUND,
    "tenth": TENTH_ROUND,
    "eleventh": ELEVENTH_ROUND,
    "twelfth": TWELFTH_ROUND,
    "thirteenth": THIRTEENTH_ROUND,
    "fourteenth": FOURTEENTH_ROUND,
    "fifteenth": FIFTEENTH_ROUND,
    "sixteenth": SIXTEENTH_ROUND,
    "seventeenth": SEVENTEENTH_ROUND,
    "eighteenth": EIGHTEENTH_ROUND,
    "nineteenth": NINETEENTH_ROUND,
}
"""Each round's rules beside the guards that keep them from accepting more (one test; the
case id names the round: `-k fourteenth`)."""


@pytest.mark.parametrize(
    ("claim", "evidence", "language", "verdict"),
    [
        pytest.param(*case, id=f"{name}-{i}")
        for name, cases in ROUNDS.items()
        for i, case in enumerate(cases)
    ],
)
def test_each_round_s_rules_and_their_guards(
    claim: str, evidence: str, language: str, verdict: str
) -> None:
    assert _verdict_in(claim, evidence, language) == verdict
