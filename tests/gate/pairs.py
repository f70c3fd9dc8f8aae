"""Hand-written faithful claim/quote pairs for the public mutation suite (en, ru, zh).

Each pair is a quote a RAG answer could cite (security policies, SLAs, pricing, medicine,
infrastructure), a claim that says exactly what the quote says, and paraphrases that still do:
reordered, inflected, with light synonyms or number words. Written for this suite; no record of
any evaluation data set is copied here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pair:
    language: str
    quote: str
    claim: str
    paraphrases: tuple[str, ...] = ()


EN = (
    Pair(
        "en",
        "Customer data is encrypted at rest with AES-256 and in transit with TLS 1.3.",
        "Customer data is encrypted in transit with TLS 1.3.",
        ("Data of customers is encrypted at rest with AES-256 and in transit with TLS 1.3.",),
    ),
    Pair(
        "en",
        "Backups run every 12 hours and are retained for 30 days unless a legal hold applies.",
        "Backups are retained for 30 days unless a legal hold applies.",
        (
            "Unless a legal hold applies, backups are kept for 30 days.",
            "Backups run every twelve hours.",
        ),
    ),
    Pair(
        "en",
        "The API accepts up to five requests per second from internal users in the EU region.",
        "The API accepts up to five requests per second from internal users in the EU region.",
        ("From internal users in the EU region, the API accepts up to 5 requests per second.",),
    ),
    Pair(
        "en",
        "The on-call engineer must acknowledge a P1 incident within 15 minutes.",
        "The on-call engineer must acknowledge a P1 incident within 15 minutes.",
        ("A P1 incident must be acknowledged by the on-call engineer within 15 minutes.",),
    ),
    Pair(
        "en",
        "The Pro plan costs $49 per month and includes 10 seats.",
        "The Pro plan costs $49 per month.",
        ("The Pro plan includes ten seats and costs $49 per month.",),
    ),
    Pair(
        "en",
        "Ibuprofen may cause stomach bleeding in some patients, especially adults over 60.",
        "Ibuprofen may cause stomach bleeding in some patients.",
        ("In some patients, ibuprofen may cause stomach bleeding.",),
    ),
    Pair(
        "en",
        "Passwords are hashed with SHA-256 before they are stored.",
        "Passwords are hashed with SHA-256 before they are stored.",
        ("Before passwords are stored, they are hashed with SHA-256.",),
    ),
    Pair(
        "en",
        "The staging cluster runs on three nodes in the Frankfurt data center.",
        "The staging cluster runs on three nodes in the Frankfurt data center.",
        ("The staging cluster in the Frankfurt data center runs on 3 nodes.",),
    ),
    Pair(
        "en",
        "Refunds are issued within 14 days, except for annual plans.",
        "Refunds are issued within 14 days, except for annual plans.",
        ("Except for annual plans, refunds are issued within 14 days.",),
    ),
    Pair(
        "en",
        "Access logs are reviewed every week by the security team.",
        "The security team reviews access logs every week.",
        ("Access logs are reviewed weekly by the security team.",),
    ),
    Pair(
        "en",
        "The service is certified to ISO 27001 and hosted in Germany.",
        "The service is certified to ISO 27001.",
        ("The service is ISO 27001 certified and hosted in Germany.",),
    ),
    Pair(
        "en",
        "Only administrators can delete a project, and only if it has no active deployments.",
        "Only administrators can delete a project, and only if it has no active deployments.",
        (
            "A project can be deleted only by administrators, and only if it has no active deployments.",
        ),
    ),
    Pair(
        "en",
        "Database failover completes in under 30 seconds on the primary cluster.",
        "Database failover completes in under 30 seconds on the primary cluster.",
        ("On the primary cluster, failover of the database completes in under 30 seconds.",),
    ),
    Pair(
        "en",
        "Patients with severe kidney disease should not take metformin.",
        "Patients with severe kidney disease should not take metformin.",
        ("Metformin should not be taken by patients with severe kidney disease.",),
    ),
    Pair(
        "en",
        "The free tier allows 1,000 API calls per day for each account.",
        "The free tier allows 1,000 API calls per day for each account.",
        ("For each account, the free tier allows 1000 API calls per day.",),
    ),
    Pair(
        "en",
        "Most outages in 2023 were caused by configuration changes.",
        "Most outages in 2023 were caused by configuration changes.",
        ("In 2023, most outages were caused by configuration changes.",),
    ),
)

RU = (
    Pair(
        "ru",
        "Журнал операций хранится в течение 30 календарных дней.",
        "Сервис хранит журнал операций 30 дней.",
        ("Журнал операций хранят 30 календарных дней.",),
    ),
    Pair(
        "ru",
        "Резервные копии создаются каждые 12 часов и хранятся 30 дней.",
        "Резервные копии создаются каждые 12 часов и хранятся 30 дней.",
        ("Каждые 12 часов создаются резервные копии; хранятся они 30 дней.",),
    ),
    Pair(
        "ru",
        "Компания работает в пяти филиалах в Москве.",
        "Компания работает в пяти филиалах в Москве.",
        ("Компания работает в Москве в 5 филиалах.",),
    ),
    Pair(
        "ru",
        "Доступ к отчётам есть только у менеджеров отдела продаж.",
        "Доступ к отчётам есть только у менеджеров отдела продаж.",
        ("Доступ к отчётам есть лишь у менеджеров отдела продаж.",),
    ),
    Pair(
        "ru",
        "Таймаут сессии составляет 30 минут для внутренних пользователей.",
        "Таймаут сессии составляет 30 минут для внутренних пользователей.",
        ("Для внутренних пользователей таймаут сессии составляет 30 минут.",),
    ),
    Pair(
        "ru",
        "Данные клиентов передаются по протоколу TLS 1.3.",
        "Данные клиентов передаются по протоколу TLS 1.3.",
        ("По протоколу TLS 1.3 передаются данные клиентов.",),
    ),
    Pair(
        "ru",
        "Возврат средств возможен в течение 14 дней, если товар не был вскрыт.",
        "Возврат средств возможен в течение 14 дней, если товар не был вскрыт.",
        ("Если товар не был вскрыт, возврат средств возможен в течение 14 дней.",),
    ),
    Pair(
        "ru",
        "Препарат может вызывать головокружение у некоторых пациентов.",
        "Препарат может вызывать головокружение у некоторых пациентов.",
        ("У некоторых пациентов препарат может вызывать головокружение.",),
    ),
    Pair(
        "ru",
        "Тариф «Бизнес» стоит 2900 рублей в месяц и включает 10 пользователей.",
        "Тариф «Бизнес» стоит 2900 рублей в месяц.",
        ("Тариф «Бизнес» включает десять пользователей.",),
    ),
    Pair(
        "ru",
        "Тестовый кластер состоит из трёх узлов в Москве.",
        "Тестовый кластер состоит из трёх узлов в Москве.",
        ("Тестовый кластер в Москве состоит из 3 узлов.",),
    ),
    Pair(
        "ru",
        "Пароли хранятся в виде хешей SHA-256.",
        "Пароли хранятся в виде хешей SHA-256.",
        ("В виде хешей SHA-256 хранятся пароли.",),
    ),
    Pair(
        "ru",
        "Инциденты уровня P1 должны быть подтверждены в течение 15 минут.",
        "Инциденты уровня P1 должны быть подтверждены в течение 15 минут.",
        ("В течение 15 минут должны быть подтверждены инциденты уровня P1.",),
    ),
    Pair(
        "ru",
        "Система поддерживает не более 500 одновременных подключений.",
        "Система поддерживает не более 500 одновременных подключений.",
        ("Не более 500 одновременных подключений поддерживает система.",),
    ),
    Pair(
        "ru",
        "Сотрудники обязаны проходить обучение по безопасности ежегодно.",
        "Сотрудники обязаны проходить обучение по безопасности ежегодно.",
        ("Обучение по безопасности сотрудники обязаны проходить ежегодно.",),
    ),
    Pair(
        "ru",
        "Сертификат действует два года с даты выдачи.",
        "Сертификат действует два года с даты выдачи.",
        ("С даты выдачи сертификат действует 2 года.",),
    ),
    Pair(
        "ru",
        "Большинство сбоев в 2023 году было вызвано ошибками конфигурации.",
        "Большинство сбоев в 2023 году было вызвано ошибками конфигурации.",
        ("В 2023 году большинство сбоев было вызвано ошибками конфигурации.",),
    ),
)

ZH = (
    Pair(
        "zh",
        "系统每秒最多处理50个任务。",
        "系统每秒最多处理50个任务。",
        ("系统最多每秒处理50个任务。",),
    ),
    Pair(
        "zh",
        "新方案使数据中心能耗降低80%。",
        "新方案使数据中心能耗降低80%。",
        ("新方案使数据中心的能耗降低了80%。",),
    ),
    Pair(
        "zh",
        "该功能仅对内部用户开放。",
        "该功能仅对内部用户开放。",
        ("该功能只对内部用户开放。",),
    ),
    Pair(
        "zh",
        "客户数据使用TLS 1.3加密传输。",
        "客户数据使用TLS 1.3加密传输。",
        ("客户数据采用TLS 1.3加密传输。",),
    ),
    Pair(
        "zh",
        "备份每12小时执行一次，保留30天。",
        "备份每12小时执行一次，保留30天。",
        ("备份保留30天，每12小时执行一次。",),
    ),
    Pair(
        "zh",
        "除非客户另有要求，日志保留90天。",
        "除非客户另有要求，日志保留90天。",
        ("日志保留90天，除非客户另有要求。",),
    ),
    Pair(
        "zh",
        "该集群由两个节点组成，部署在北京。",
        "该集群由两个节点组成，部署在北京。",
        ("该集群由2个节点组成，部署在北京。",),
    ),
    Pair(
        "zh",
        "专业版每月收费99元，包含10个席位。",
        "专业版每月收费99元，包含10个席位。",
        ("专业版包含10个席位，每月收费99元。",),
    ),
    Pair(
        "zh",
        "布洛芬可能导致部分患者胃出血。",
        "布洛芬可能导致部分患者胃出血。",
        ("布洛芬可能会导致部分患者胃出血。",),
    ),
    Pair(
        "zh",
        "密码使用SHA-256哈希后存储。",
        "密码使用SHA-256哈希后存储。",
        ("密码采用SHA-256哈希后储存。",),
    ),
    Pair(
        "zh",
        "该公司已通过ISO 27001认证。",
        "该公司已通过ISO 27001认证。",
        ("该公司通过了ISO 27001认证。",),
    ),
    Pair(
        "zh",
        "P1级故障必须在15分钟内响应。",
        "P1级故障必须在15分钟内响应。",
        ("P1级故障务必在15分钟内响应。",),
    ),
    Pair(
        "zh",
        "退款在14天内处理，年度套餐除外。",
        "退款在14天内处理，年度套餐除外。",
        ("年度套餐除外，退款在14天内处理。",),
    ),
    Pair(
        "zh",
        "大多数故障是由配置变更引起的。",
        "大多数故障是由配置变更引起的。",
        ("大多数故障由配置变更引起。",),
    ),
    Pair(
        "zh",
        "会话超时时间为30分钟，适用于测试环境。",
        "会话超时时间为30分钟，适用于测试环境。",
        ("测试环境的会话超时时间为30分钟。",),
    ),
    Pair(
        "zh",
        "员工每年必须完成一次安全培训。",
        "员工每年必须完成一次安全培训。",
        ("员工必须每年完成一次安全培训。",),
    ),
)

PAIRS = (*EN, *RU, *ZH)
